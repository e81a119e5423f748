/** Word lists for realistic product, ad and campaign names. Prices are in USD, converted per store. */

import type { ProductTheme } from "./fixtures";

interface ProductKind {
  code: string;
  noun: string;
  minUsd: number;
  maxUsd: number;
}

interface ProductVocabulary {
  prefixes: readonly string[];
  kinds: readonly ProductKind[];
  colors: readonly string[];
}

export const PRODUCT_VOCABULARY: Record<ProductTheme, ProductVocabulary> = {
  outdoor: {
    prefixes: ["Alpine", "Ridgeline", "Cascade", "Summit", "Basecamp", "Timberline", "Heritage", "Trailhead", "Glacier", "Northfork"],
    kinds: [
      { code: "BEA", noun: "Merino Wool Beanie", minUsd: 24, maxUsd: 42 },
      { code: "JKT", noun: "Insulated Jacket", minUsd: 179, maxUsd: 329 },
      { code: "SHL", noun: "Packable Rain Shell", minUsd: 129, maxUsd: 249 },
      { code: "PKA", noun: "Recycled Down Parka", minUsd: 249, maxUsd: 389 },
      { code: "FLC", noun: "Recycled Fleece Pullover", minUsd: 69, maxUsd: 119 },
      { code: "QZP", noun: "Quarter-Zip", minUsd: 79, maxUsd: 109 },
      { code: "BLC", noun: "Merino Base Layer Crew", minUsd: 49, maxUsd: 89 },
      { code: "BLL", noun: "Base Layer Leggings", minUsd: 49, maxUsd: 85 },
      { code: "SCK", noun: "Merino Hiking Socks", minUsd: 14, maxUsd: 26 },
      { code: "DPK", noun: "Daypack 22L", minUsd: 79, maxUsd: 139 },
      { code: "RTB", noun: "Roll-Top Backpack 28L", minUsd: 119, maxUsd: 169 },
      { code: "GLV", noun: "Touchscreen Gloves", minUsd: 29, maxUsd: 59 },
      { code: "TRR", noun: "Trail Runner", minUsd: 119, maxUsd: 169 },
      { code: "BOT", noun: "Waterproof Hiking Boot", minUsd: 159, maxUsd: 229 },
      { code: "CAP", noun: "Trucker Cap", minUsd: 26, maxUsd: 36 },
      { code: "BTL", noun: "Insulated Water Bottle", minUsd: 29, maxUsd: 44 },
      { code: "MUG", noun: "Enamel Camp Mug", minUsd: 18, maxUsd: 28 },
      { code: "HLP", noun: "Rechargeable Headlamp", minUsd: 39, maxUsd: 69 },
      { code: "VST", noun: "Puffer Vest", minUsd: 99, maxUsd: 159 },
      { code: "PNT", noun: "Hiking Pants", minUsd: 79, maxUsd: 119 },
    ],
    colors: ["Charcoal", "Navy", "Forest", "Rust", "Glacier Blue", "Sand", "Black", "Olive", "Heather Grey", "Ember"],
  },
  home: {
    prefixes: ["Hasami", "Mino", "Kyoto", "Shiro", "Kumo", "Sakura", "Hinoki", "Washi", "Arita", "Mashiko"],
    kinds: [
      { code: "POS", noun: "Ceramic Pour-Over Set", minUsd: 48, maxUsd: 89 },
      { code: "STL", noun: "Bath Stool", minUsd: 59, maxUsd: 119 },
      { code: "DUV", noun: "Linen Duvet Cover", minUsd: 139, maxUsd: 229 },
      { code: "RBW", noun: "Stoneware Rice Bowl", minUsd: 16, maxUsd: 32 },
      { code: "TPT", noun: "Cast Iron Teapot", minUsd: 69, maxUsd: 129 },
      { code: "CBD", noun: "Bamboo Cutting Board", minUsd: 29, maxUsd: 59 },
      { code: "NOR", noun: "Noren Curtain", minUsd: 45, maxUsd: 79 },
      { code: "FUT", noun: "Futon Mattress", minUsd: 249, maxUsd: 449 },
      { code: "LAN", noun: "Paper Lantern Pendant", minUsd: 59, maxUsd: 149 },
      { code: "TEN", noun: "Cotton Tenugui Towel", minUsd: 12, maxUsd: 22 },
      { code: "TMB", noun: "Glass Tumbler Set", minUsd: 34, maxUsd: 58 },
      { code: "CHP", noun: "Walnut Chopsticks Set", minUsd: 18, maxUsd: 36 },
      { code: "DIF", noun: "Aroma Diffuser", minUsd: 49, maxUsd: 89 },
      { code: "CSH", noun: "Cushion Cover", minUsd: 29, maxUsd: 49 },
      { code: "ZAB", noun: "Zabuton Floor Cushion", minUsd: 69, maxUsd: 119 },
      { code: "PLT", noun: "Dinner Plate", minUsd: 22, maxUsd: 38 },
      { code: "VAS", noun: "Bud Vase", minUsd: 24, maxUsd: 54 },
      { code: "TRY", noun: "Lacquer Serving Tray", minUsd: 39, maxUsd: 79 },
    ],
    colors: ["Natural", "Indigo", "Ash Grey", "Kinari", "Sumi Black", "Matcha", "Persimmon", "Sakura Pink"],
  },
};

export const CAMPAIGN_THEMES: Record<ProductTheme, readonly string[]> = {
  outdoor: [
    "Winter Sale",
    "Spring Launch",
    "Evergreen",
    "Black Friday",
    "Holiday Gifting",
    "New Arrivals",
    "Summer Trail",
    "Back to School",
    "Brand Awareness",
    "Trail Series",
    "Cyber Monday",
    "End of Season",
  ],
  home: [
    "New Year Sale",
    "Cherry Blossom",
    "Summer Living",
    "Autumn Tea",
    "Year-End Gifts",
    "Golden Week",
    "Evergreen",
    "New Arrivals",
    "Brand Awareness",
    "Slow Mornings",
    "Black Friday",
    "Bedroom Refresh",
  ],
};

export const AD_FORMATS: Record<string, readonly string[]> = {
  facebook: ["Carousel", "Single Image", "Video 15s", "Collection", "Reels"],
  google: ["Responsive Search", "Performance Max", "Shopping", "Display", "YouTube Bumper"],
  tiktok: ["Spark Ad", "In-Feed Video", "Creator Collab", "Carousel"],
  linkedin: ["Sponsored Content", "Message Ad", "Document Ad", "Video Ad"],
  pinterest: ["Standard Pin", "Idea Pin", "Shopping Pin", "Carousel Pin"],
  snapchat: ["Story Ad", "Collection Ad", "Single Image", "AR Lens"],
};

export const AUDIENCES: readonly string[] = [
  "Prospecting",
  "Retargeting",
  "Lookalike 1%",
  "Broad",
  "Past Purchasers",
  "Cart Abandoners",
  "Interest Stack",
];

export const CAMPAIGN_GROUP_NAMES: readonly string[] = [
  "Always-on Retargeting",
  "Q4 Holiday Prospecting",
  "Spring Launch",
  "Employer Brand",
  "Trail Series Awareness",
  "B2B Gifting Program",
  "Wholesale Partners",
  "New Collection Teasers",
  "Lead Gen — Corporate Orders",
];
