import { ODD_ORGANIZATION, ODD_STORE, ODD_USER } from "./odd-fixtures";

/**
 * The fixed cast of the demo: organizations, stores and users (their API keys are in keys.ts).
 */

/** The contract does not list roles: the odd store's user has one of its own. */
type Role = "owner" | "admin" | "member" | (string & {});
export type ProductTheme = "outdoor" | "home";

/** Stores have data from their creation date up to this day (inclusive), independent of today. */
export const DATA_END_DATE = "2030-12-31";

export interface OrganizationFixture {
  id: string;
  name: string;
  slug: string;
  createdAt: string;
}

export interface StoreFixture {
  id: string;
  url: string;
  name: string;
  type: string;
  currency: string;
  /** 0 for zero-decimal currencies (JPY): money is written as integers. */
  currencyDecimals: 0 | 2;
  timezone: string;
  organizationId: string;
  /** Chosen in mid-day UTC, so the UTC date is also the store-local date of creation. */
  createdAt: string;
  updatedAt: string;
  skuPrefix: string;
  theme: ProductTheme;
  /** WooCommerce uses small integer IDs, Shopify long numeric ones. */
  productIdStyle: "shopify" | "woocommerce";
  domain: string;
  /** Tracking connection timestamps: Northwind's backend writes ms, Kumo's seconds. */
  timestampUnit: "ms" | "s";
  countryWeights: ReadonlyArray<readonly [string, number]>;
  /** Share of attributed orders by converting channel. */
  channelWeights: ReadonlyArray<readonly [string, number]>;
  /** Share of iOS among mobile devices (Japan leans iPhone). */
  iosShare: number;
}

export interface UserFixture {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  image: string | null;
  roles: Readonly<Record<string, Role>>;
}

const ORGANIZATIONS: readonly OrganizationFixture[] = [
  { id: "org_northwind", name: "Northwind Outfitters", slug: "northwind-outfitters", createdAt: "2023-02-06T14:22:31.000Z" },
  { id: "org_kumo", name: "Kumo Living", slug: "kumo-living", createdAt: "2023-08-21T03:40:12.000Z" },
];

const WESTERN_CHANNELS = [
  ["facebook", 0.25],
  ["google", 0.24],
  ["tiktok", 0.09],
  ["linkedin", 0.03],
  ["pinterest", 0.07],
  ["snapchat", 0.04],
  ["email", 0.13],
  ["organic", 0.15],
] as const;

export const STORES: readonly StoreFixture[] = [
  {
    id: "store_01H7NW5QK2US",
    url: "northwind-outfitters.myshopify.com",
    name: "Northwind Outfitters (US)",
    type: "shopify",
    currency: "USD",
    currencyDecimals: 2,
    timezone: "America/New_York",
    organizationId: "org_northwind",
    createdAt: "2023-03-14T15:12:44.000Z",
    updatedAt: "2025-09-30T18:04:11.000Z",
    skuPrefix: "NW",
    theme: "outdoor",
    productIdStyle: "shopify",
    domain: "northwindoutfitters.com",
    timestampUnit: "ms",
    countryWeights: [
      ["US", 78],
      ["CA", 9],
      ["GB", 4],
      ["AU", 2],
      ["DE", 2],
      ["MX", 2],
      ["FR", 1],
      ["JP", 1],
      ["NL", 1],
    ],
    channelWeights: WESTERN_CHANNELS,
    iosShare: 0.56,
  },
  {
    id: "store_01HPNW8ZB4EU",
    url: "northwind-eu.myshopify.com",
    name: "Northwind Outfitters (EU)",
    type: "shopify",
    currency: "EUR",
    currencyDecimals: 2,
    timezone: "Europe/Berlin",
    organizationId: "org_northwind",
    createdAt: "2024-02-19T10:31:05.000Z",
    updatedAt: "2025-10-14T08:45:52.000Z",
    skuPrefix: "NE",
    theme: "outdoor",
    productIdStyle: "shopify",
    domain: "northwindoutfitters.eu",
    timestampUnit: "ms",
    countryWeights: [
      ["DE", 38],
      ["FR", 15],
      ["NL", 10],
      ["AT", 7],
      ["IT", 7],
      ["ES", 7],
      ["BE", 5],
      ["SE", 4],
      ["PL", 4],
      ["GB", 3],
    ],
    channelWeights: WESTERN_CHANNELS,
    iosShare: 0.42,
  },
  {
    id: "store_01HA9KM3JPWC",
    url: "kumo-living.jp",
    name: "Kumo Living",
    type: "woocommerce",
    currency: "JPY",
    currencyDecimals: 0,
    timezone: "Asia/Tokyo",
    organizationId: "org_kumo",
    createdAt: "2023-09-04T02:30:18.000Z",
    updatedAt: "2025-08-02T05:12:40.000Z",
    skuPrefix: "KL",
    theme: "home",
    productIdStyle: "woocommerce",
    domain: "kumo-living.jp",
    timestampUnit: "s",
    countryWeights: [
      ["JP", 92],
      ["US", 3],
      ["TW", 2],
      ["KR", 2],
      ["SG", 1],
    ],
    channelWeights: [
      ["facebook", 0.14],
      ["google", 0.33],
      ["tiktok", 0.07],
      ["linkedin", 0.01],
      ["pinterest", 0.05],
      ["snapchat", 0.01],
      ["email", 0.17],
      ["organic", 0.22],
    ],
    iosShare: 0.7,
  },
  {
    id: "store_01J0KMAU7X2R",
    url: "kumo-living-au.myshopify.com",
    name: "Kumo Living (Australia)",
    type: "shopify",
    currency: "AUD",
    currencyDecimals: 2,
    timezone: "Australia/Sydney",
    organizationId: "org_kumo",
    createdAt: "2024-06-11T01:05:27.000Z",
    updatedAt: "2025-07-21T23:58:03.000Z",
    skuPrefix: "KA",
    theme: "home",
    productIdStyle: "shopify",
    domain: "kumoliving.com.au",
    timestampUnit: "s",
    countryWeights: [
      ["AU", 80],
      ["NZ", 12],
      ["SG", 3],
      ["GB", 3],
      ["US", 2],
    ],
    channelWeights: WESTERN_CHANNELS,
    iosShare: 0.58,
  },
];

const USERS: readonly UserFixture[] = [
  {
    id: "usr_2b6f0c1e9a",
    name: "Maya Chen",
    email: "maya.chen@northwind-outfitters.com",
    emailVerified: true,
    image: "https://avatars.example.com/u/maya-chen.png",
    roles: { org_northwind: "owner" },
  },
  {
    id: "usr_7d41a9e3c0",
    name: "Leo Park",
    email: "leo.park@northwind-outfitters.com",
    emailVerified: false,
    image: null,
    roles: { org_northwind: "member" },
  },
  {
    id: "usr_c93e5b27f4",
    name: "Priya Nair",
    email: "priya.nair@northwind-outfitters.com",
    emailVerified: true,
    image: "https://avatars.example.com/u/priya-nair.jpg",
    roles: { org_northwind: "admin" },
  },
  {
    id: "usr_48fa0d6b12",
    name: "Kenji Sato",
    email: "kenji.sato@kumo-living.jp",
    emailVerified: true,
    image: null,
    roles: { org_kumo: "owner" },
  },
];

/*
 * The odd store's organization, store and user are found too: only its key, which
 * authenticates in odd mode alone (`findKey`), reaches them.
 */
export function findStore(url: string): StoreFixture | undefined {
  return STORES.find((store) => store.url === url) ?? (url === ODD_STORE.url ? ODD_STORE : undefined);
}

export function findOrganization(id: string): OrganizationFixture | undefined {
  return ORGANIZATIONS.find((org) => org.id === id) ?? (id === ODD_ORGANIZATION.id ? ODD_ORGANIZATION : undefined);
}

export function findUser(id: string): UserFixture | undefined {
  return USERS.find((user) => user.id === id) ?? (id === ODD_USER.id ? ODD_USER : undefined);
}

/** Day number (days since 1970-01-01) of a YYYY-MM-DD string; dates are calendar days, not instants. */
export function dayNumber(date: string): number {
  return Math.floor(Date.parse(`${date}T00:00:00Z`) / 86_400_000);
}

export function dayString(day: number): string {
  return new Date(day * 86_400_000).toISOString().slice(0, 10);
}

export function storeFirstDay(store: StoreFixture): number {
  return dayNumber(store.createdAt.slice(0, 10));
}

export const LAST_DATA_DAY = dayNumber(DATA_END_DATE);
