/**
 * Store assets that depend on the seed only (not on scale): tracking connections, catalog
 * connections and LinkedIn ad accounts with their campaign groups. These are the initial
 * values of the mutable state (state.ts) and what describeDemo() lists.
 */

import type { TrackingConnection } from "@/shared/schemas/tracking-connection";
import { STORES, type StoreFixture } from "./fixtures";
import { CAMPAIGN_GROUP_NAMES } from "./names";
import { Rng } from "./random";

type CampaignGroupStatus = "ACTIVE" | "PAUSED" | "ARCHIVED";

export interface CampaignGroup {
  id: string;
  name: string;
  /** The seeded groups use the three known statuses; the odd store's also one the contract does not name. */
  status: CampaignGroupStatus | (string & {});
  dailyBudget: number;
  lifetimeBudget: number;
  currency: string;
  startTime: number | null;
  endTime: number | null;
  createdAt: string;
  clonedFrom: string | null;
}

export interface AdAccount {
  id: string;
  name: string;
  storeUrl: string;
  currency: string;
  campaignGroups: CampaignGroup[];
}

interface PixelPlan {
  channel: string;
  name: string;
}

const PIXEL_PLANS: Record<string, PixelPlan[]> = {
  "northwind-outfitters.myshopify.com": [
    { channel: "facebook", name: "Meta Pixel — Storefront" },
    { channel: "google", name: "Google Ads — Purchase Conversion" },
    { channel: "google", name: "GA4 — Storefront" },
    { channel: "tiktok", name: "TikTok Pixel" },
    { channel: "pinterest", name: "Pinterest Tag" },
    { channel: "snapchat", name: "Snap Pixel (paused test)" },
  ],
  "northwind-eu.myshopify.com": [
    { channel: "facebook", name: "Meta Pixel — EU Storefront" },
    { channel: "google", name: "Google Ads — EU Conversions" },
    { channel: "tiktok", name: "TikTok Pixel — EU" },
    { channel: "linkedin", name: "LinkedIn Insight Tag" },
  ],
  "kumo-living.jp": [
    { channel: "google", name: "Google 広告 — 購入コンバージョン" },
    { channel: "facebook", name: "Meta Pixel — Kumo JP" },
    { channel: "tiktok", name: "TikTok Pixel — JP" },
  ],
  "kumo-living-au.myshopify.com": [
    { channel: "facebook", name: "Meta Pixel — Kumo AU" },
    { channel: "google", name: "Google Ads — AU Purchases" },
    { channel: "pinterest", name: "Pinterest Tag — AU" },
    { channel: "snapchat", name: "Snap Pixel — AU" },
    { channel: "tiktok", name: "TikTok Pixel — AU" },
  ],
};

const EVENTS = ["Purchase", "AddToCart", "InitiateCheckout", "ViewContent", "AddPaymentInfo", "Search", "Lead", "PageView"];

function platformPixelId(rng: Rng, channel: string, name: string): string {
  switch (channel) {
    case "facebook":
      return `${rng.int(1, 9)}${rng.digits(14)}`;
    case "google":
      return name.startsWith("GA4") ? `G-${rng.hex(10).toUpperCase()}` : `AW-${rng.int(1, 9)}${rng.digits(9)}`;
    case "tiktok":
      return `C${rng.hex(19).toUpperCase()}`;
    case "pinterest":
      return `26${rng.digits(11)}`;
    case "linkedin":
      return `${rng.int(1, 9)}${rng.digits(6)}`;
    default:
      return `${rng.hex(8)}-${rng.hex(4)}-4${rng.hex(3)}-a${rng.hex(3)}-${rng.hex(12)}`;
  }
}

function buildPixels(seed: number, store: StoreFixture): TrackingConnection[] {
  const rng = Rng.from(seed, store.url, "pixels");
  const created = Date.parse(store.createdAt);
  const plans = PIXEL_PLANS[store.url] ?? [];
  return plans.map((plan, index) => {
    const createdMs = created + rng.int(1, 120) * 86_400_000 + rng.int(0, 86_399) * 1000;
    const updatedMs = createdMs + rng.int(0, 400) * 86_400_000 + rng.int(0, 86_399) * 1000;
    const toUnit = (ms: number) => (store.timestampUnit === "s" ? Math.floor(ms / 1000) : ms);
    // Fixed variety per position, so every store shows each flag in both states.
    const enabled = index !== plans.length - 1;
    const published = index % 3 !== 2;
    const include = rng.shuffle(EVENTS.slice(0, 7)).slice(0, rng.int(2, 5));
    if (!include.includes("Purchase")) include.unshift("Purchase");
    return {
      id: `px_${rng.hex(12)}`,
      store: store.url,
      name: plan.name,
      pixel: platformPixelId(rng, plan.channel, plan.name),
      channel: plan.channel,
      enabled,
      settings: {
        enabled,
        hideOriginalIP: rng.chance(0.4),
        gaAnalytics: plan.name.startsWith("GA4"),
        baseDomain: store.domain,
        metadata: index % 2 === 0 ? { source: "dashboard", configVersion: rng.int(1, 6) } : {},
        eventSettings: { includeEvents: include, excludeEvents: index % 2 === 1 ? ["PageView"] : [] },
        disableSubscribeEvents: rng.chance(0.3),
      },
      createdAt: toUnit(createdMs),
      updatedAt: toUnit(updatedMs),
      published,
      hasUnpublishedChanges: !published || index % 4 === 1,
    };
  });
}

export function initialPixels(seed: number): Map<string, TrackingConnection[]> {
  return new Map(STORES.map((store) => [store.url, buildPixels(seed, store)]));
}

const CATALOG_PLANS: Record<string, Array<{ provider: string; status: string }>> = {
  "northwind-outfitters.myshopify.com": [
    { provider: "google_merchant_center", status: "active" },
    { provider: "meta_catalog", status: "active" },
    { provider: "tiktok_catalog", status: "error" },
  ],
  "northwind-eu.myshopify.com": [
    { provider: "google_merchant_center", status: "active" },
    { provider: "meta_catalog", status: "paused" },
  ],
  "kumo-living.jp": [{ provider: "google_merchant_center", status: "active" }],
  "kumo-living-au.myshopify.com": [],
};

/** Catalog connection fields are not in the contract: a generic, varied shape. */
export function catalogConnections(seed: number, store: StoreFixture, productTotal: number): Array<Record<string, unknown>> {
  const rng = Rng.from(seed, store.url, "catalogs");
  return (CATALOG_PLANS[store.url] ?? []).map((plan) => {
    const id = `cat_${rng.hex(10)}`;
    const synced = Date.UTC(2025, 10, 1) + rng.int(0, 20 * 86_400) * 1000;
    return {
      id,
      provider: plan.provider,
      status: plan.status,
      productCount: plan.status === "error" ? productTotal - rng.int(1, Math.max(1, Math.floor(productTotal / 4))) : productTotal,
      lastSyncedAt: new Date(synced).toISOString(),
      feedUrl: `https://${store.domain}/feeds/${plan.provider}/${id}.xml`,
      country: store.countryWeights[0]?.[0] ?? null,
      currency: store.currency,
      ...(plan.status === "error" ? { errorMessage: `Feed rejected: ${rng.int(3, 40)} products are missing a GTIN` } : {}),
    };
  });
}

const ACCOUNT_PLANS: Record<string, Array<{ name: string; groups: number }>> = {
  "northwind-outfitters.myshopify.com": [
    { name: "Northwind Outfitters — US", groups: 5 },
    { name: "Northwind — Brand & Hiring", groups: 3 },
  ],
  "northwind-eu.myshopify.com": [{ name: "Northwind Outfitters — EU", groups: 4 }],
  "kumo-living.jp": [{ name: "Kumo Living — Japan", groups: 3 }],
  "kumo-living-au.myshopify.com": [{ name: "Kumo Living — Australia", groups: 4 }],
};

export function initialAdAccounts(seed: number): AdAccount[] {
  const rng = Rng.from(seed, "linkedin-ad-accounts");
  const statuses: CampaignGroupStatus[] = ["ACTIVE", "PAUSED", "ACTIVE", "ARCHIVED", "PAUSED"];
  const accounts: AdAccount[] = [];
  for (const store of STORES) {
    const budgetUnit = store.currency === "JPY" ? 150 : 1;
    for (const plan of ACCOUNT_PLANS[store.url] ?? []) {
      const names = rng.shuffle(CAMPAIGN_GROUP_NAMES);
      const groups: CampaignGroup[] = Array.from({ length: plan.groups }, (_, index) => {
        const created = Date.parse(store.createdAt) + rng.int(10, 500) * 86_400_000;
        return {
          id: `6${rng.int(1, 9)}${rng.digits(7)}`,
          name: names[index % names.length] as string,
          status: statuses[index % statuses.length] as CampaignGroupStatus,
          dailyBudget: rng.int(5, 40) * 10 * budgetUnit,
          lifetimeBudget: rng.chance(0.5) ? rng.int(5, 40) * 1000 * budgetUnit : 0,
          currency: store.currency,
          startTime: created,
          endTime: null,
          createdAt: new Date(created).toISOString(),
          clonedFrom: null,
        };
      });
      accounts.push({
        id: `5${rng.int(1, 9)}${rng.digits(7)}`,
        name: plan.name,
        storeUrl: store.url,
        currency: store.currency,
        campaignGroups: groups,
      });
    }
  }
  return accounts;
}
