/**
 * What the odd store serves, written by hand and deterministic: the same rows for a date
 * whatever the seed, scale or day the server runs. Every row is contract-valid; together
 * they hold an unknown channel, an empty one, 0, negative and 10^12 amounts, names that are
 * null, 300 characters, right-to-left or emoji, a null currency and extra properties.
 */

import type { ProductsQuery } from "@/shared/schemas/product-metrics";
import { splitCommaList } from "@/shared/schemas/common";
import type { AdAccount } from "./assets";
import { dayNumber, dayString, DATA_END_DATE } from "./fixtures";
import { LONG_NAME, ODD_STORE } from "./odd-fixtures";

interface OddProduct {
  id: string;
  name: string | null;
  sku?: string | null;
}

const PRODUCTS = {
  long: { id: "odd-long-name", name: LONG_NAME, sku: `SKU-${"X".repeat(60)}` },
  hebrew: { id: "odd-rtl-he", name: "כוס קפה קרמית — כחול", sku: "RTL-1" },
  arabic: { id: "odd-rtl-ar", name: "وسادة قطنية ناعمة", sku: null },
  emoji: { id: "odd-emoji", name: "🧦🧦 Socks, pair of 2 🎁", sku: "EMO-2" },
  unnamed: { id: `odd-${"7".repeat(120)}`, name: null },
  huge: { id: "odd-enterprise", name: "Enterprise licence (10^12)", sku: "ENT-1" },
} satisfies Record<string, OddProduct>;

/** Ads that enrich resolves for the odd store, by channel; other IDs stay unresolved. */
export const ODD_ADS: Record<string, Array<{ id: string; name: string; status: string }>> = {
  facebook: [{ id: "odd-ad-1", name: `إعلان تجريبي ${"🧪".repeat(3)}`, status: "IN_REVIEW" }],
};

interface RowPlan {
  channel: string;
  adId?: string | null;
  product: OddProduct;
  orders: number;
  units: number;
  revenue: number;
  time: string;
  /** The huge order lands on every tenth day only. */
  every?: number;
}

const PLANS: RowPlan[] = [
  { channel: "facebook", adId: "odd-ad-1", product: PRODUCTS.long, orders: 1, units: 1, revenue: 19.99, time: "09:15:00" },
  { channel: "fediverse-beta", adId: null, product: PRODUCTS.hebrew, orders: 2, units: 3, revenue: 0, time: "10:00:00" },
  { channel: "google", adId: "odd-ad-unknown", product: PRODUCTS.emoji, orders: 1, units: -1, revenue: -49.99, time: "11:30:00" },
  { channel: "", product: PRODUCTS.arabic, orders: 0, units: 0, revenue: 0, time: "" },
  { channel: "📺 TV (offline)", product: PRODUCTS.unnamed, orders: 3, units: 4, revenue: 120.5, time: "23:59:59" },
  { channel: "linkedin", adId: null, product: PRODUCTS.huge, orders: 1, units: 1, revenue: 1e12, time: "12:00:00", every: 10 },
];

const FIRST_DAY = dayNumber(ODD_STORE.createdAt.slice(0, 10));
const LAST_DAY = dayNumber(DATA_END_DATE);

/** A row of the contract (2.4); optional fields left out or null by turns, plus a property it does not list. */
function row(plan: RowPlan, date: string, day: number): Record<string, unknown> {
  return {
    shop: ODD_STORE.url,
    date,
    time: plan.time,
    channel: plan.channel,
    ...(plan.adId === undefined ? {} : { ad_id: plan.adId }),
    product_id: plan.product.id,
    product_name: plan.product.name,
    ...(plan.product.sku === undefined ? {} : { product_sku: plan.product.sku }),
    currency: null,
    orders: plan.orders,
    units: plan.units,
    revenue: plan.revenue,
    ...(day % 2 === 0 ? { revenue_per_order: plan.orders > 0 ? plan.revenue / plan.orders : null, units_per_order: null } : {}),
    attribution_model_v3: { experimental: true },
  };
}

/**
 * GET products for the odd store. The rows carry no countries, devices, systems or
 * browsers (its dimensions are empty), so a filter on any of them matches nothing.
 */
export function oddProductRows(query: ProductsQuery): Record<string, unknown>[] {
  const dimensionFiltered = [query.filterCountry, query.filterDeviceType, query.filterOS, query.filterBrowser].some(Boolean);
  if (dimensionFiltered) return [];
  const productIds = query.filterProductId ? new Set(splitCommaList(query.filterProductId)) : undefined;
  const rows: Record<string, unknown>[] = [];
  const from = Math.max(FIRST_DAY, dayNumber(query.startDate));
  const to = Math.min(LAST_DAY, dayNumber(query.endDate));
  for (let day = from; day <= to; day++) {
    const date = dayString(day);
    for (const plan of PLANS) {
      if (plan.every && day % plan.every !== 0) continue;
      if (query.channel !== undefined && plan.channel !== query.channel) continue;
      if (query.adId !== undefined && plan.adId !== query.adId) continue;
      if (productIds && !productIds.has(plan.product.id)) continue;
      rows.push(row(plan, date, day));
    }
  }
  return rows;
}

export const ODD_DIMENSIONS = { countries: [], deviceTypes: [], os: [], browsers: [], productIds: [] };

/** One LinkedIn ad account, so that a clone can be tried from the odd store; its groups carry odd names and statuses. */
export function oddAdAccounts(): AdAccount[] {
  const group = (id: string, name: string, status: string) => ({
    id,
    name,
    status,
    dailyBudget: 0,
    lifetimeBudget: 1e12,
    currency: "USD",
    startTime: Date.parse("2024-02-01T00:00:00Z"),
    endTime: null,
    createdAt: "2024-02-01T00:00:00.000Z",
    clonedFrom: null,
  });
  return [
    {
      id: "599999999",
      name: "حساب إعلانات — Odd Data Lab",
      storeUrl: ODD_STORE.url,
      currency: "USD",
      campaignGroups: [
        group("699999991", "קמפיין אביב 🌸 Spring", "PAUSED"),
        group("699999992", LONG_NAME, "PENDING_REVIEW"),
        group("699999993", "🎯", "ACTIVE"),
      ],
    },
  ];
}
