import { describe, expect, it } from "vitest";
import { productMetricRowSchema } from "@/shared/schemas/product-metrics";
import { productMetricsViewSchema } from "@/shared/schemas/product-metrics-view";
import { BreakdownAggregator, isMetricRow, ProductMetricsAggregator, totalsOf, type MetricRow } from "./aggregate";

const row = (overrides: Partial<MetricRow>): MetricRow => ({
  date: "2026-03-01",
  channel: "google",
  ad_id: "ad-1",
  product_id: "p1",
  product_name: "Beanie",
  product_sku: "SKU-1",
  currency: "USD",
  orders: 1,
  units: 1,
  revenue: 10,
  ...overrides,
});

function aggregate(rows: MetricRow[], decimals = 2) {
  const aggregator = new ProductMetricsAggregator();
  rows.forEach((r) => aggregator.add(r));
  return aggregator.result(decimals);
}

describe("ProductMetricsAggregator", () => {
  it("sums revenue, orders and units, and derives average order value and units per order", () => {
    const { totals } = aggregate([
      row({ orders: 1, units: 2, revenue: 19.99 }),
      row({ orders: 2, units: 3, revenue: 40.01, product_id: "p2" }),
    ]);
    expect(totals).toEqual({ revenue: 60, orders: 3, units: 5, averageOrderValue: 20, unitsPerOrder: 5 / 3, rows: 2 });
  });

  it("gives no average order value when there are no orders", () => {
    expect(aggregate([]).totals).toEqual({ revenue: 0, orders: 0, units: 0, averageOrderValue: null, unitsPerOrder: null, rows: 0 });
    expect(aggregate([row({ orders: 0, units: 0, revenue: 0 })]).totals.averageOrderValue).toBeNull();
  });

  it("rounds money to the currency's decimals: cents for USD, whole yen for JPY", () => {
    const cents = aggregate(Array.from({ length: 10 }, () => row({ revenue: 0.1 })));
    expect(cents.totals.revenue).toBe(1);
    const yen = aggregate([row({ revenue: 1000, orders: 3 })], 0);
    expect(yen.totals.averageOrderValue).toBe(333);
  });

  it("builds a day × channel series, channel totals and products sorted by revenue", () => {
    const result = aggregate([
      row({ date: "2026-03-02", channel: "facebook", revenue: 5 }),
      row({ date: "2026-03-01", channel: "google", revenue: 10 }),
      row({ date: "2026-03-01", channel: "google", revenue: 2, product_id: "p2", product_name: null }),
    ]);
    expect(result.series).toEqual([
      { date: "2026-03-01", channel: "google", revenue: 12, orders: 2, units: 2 },
      { date: "2026-03-02", channel: "facebook", revenue: 5, orders: 1, units: 1 },
    ]);
    expect(result.channels.map((c) => [c.channel, c.revenue])).toEqual([
      ["google", 12],
      ["facebook", 5],
    ]);
    expect(result.products.map((p) => [p.productId, p.revenue, p.name])).toEqual([
      ["p1", 15, "Beanie"],
      ["p2", 2, null],
    ]);
  });

  it("orders channels and breakdown rows of equal revenue by name, whatever order their rows came in (the day rollups sum in another order)", () => {
    const tied = [row({ channel: "tiktok" }), row({ channel: "google" }), row({ channel: "organic" })];
    for (const rows of [tied, [...tied].reverse()]) {
      expect(aggregate(rows).channels.map((c) => c.channel)).toEqual(["google", "organic", "tiktok"]);
      const breakdown = new BreakdownAggregator();
      [...rows, row({ channel: "google", ad_id: null })].forEach((r) => breakdown.add(r));
      expect(breakdown.result("p1", 2).rows.map((r) => [r.channel, r.adId])).toEqual([
        ["google", null],
        ["google", "ad-1"],
        ["organic", "ad-1"],
        ["tiktok", "ad-1"],
      ]);
    }
  });
});

describe("BreakdownAggregator", () => {
  it("groups one product's rows by channel and ad, keeping rows without an ad", () => {
    const breakdown = new BreakdownAggregator();
    [row({ ad_id: "a" }), row({ ad_id: "a", revenue: 5 }), row({ channel: "email", ad_id: null, revenue: 1 })].forEach((r) =>
      breakdown.add(r),
    );
    expect(breakdown.result("p1", 2).rows).toEqual([
      { channel: "google", adId: "a", orders: 2, units: 2, revenue: 15 },
      { channel: "email", adId: null, orders: 1, units: 1, revenue: 1 },
    ]);
  });
});

describe("isMetricRow", () => {
  it("agrees with the contract's row schema on valid and invalid rows", () => {
    const full = { shop: "shop.example", time: "10:00:00", ...row({}) };
    const samples: unknown[] = [
      full,
      { ...full, extra: "allowed" },
      { ...full, ad_id: undefined, product_name: undefined },
      { ...full, orders: "1" },
      { ...full, revenue: Number.NaN },
      { ...full, channel: 3 },
      { ...full, product_id: undefined },
      null,
      "row",
    ];
    for (const sample of samples) {
      const expected = productMetricRowSchema.safeParse(sample).success;
      expect(isMetricRow(sample), JSON.stringify(sample)).toBe(expected);
    }
  });
});

describe("totalsOf", () => {
  it("gives no ratio rather than Infinity for a vanishingly small order count (the page refused the whole view)", () => {
    const totals = totalsOf({ orders: 5e-324, units: 1, revenue: 1 }, 1, 2);
    expect(totals.averageOrderValue).toBeNull();
    expect(totals.unitsPerOrder).toBeNull();
    expect(productMetricsViewSchema.shape.totals.safeParse(totals).success).toBe(true);
  });

  it("gives the same average order value for the same rows summed in another order (a half-cent boundary)", () => {
    // 49.88 + 270.21 + 262.14 is 582.23 one way and 582.2299999999999 the other; 291.115 per order.
    const leftFirst = 49.88 + 270.21 + 262.14;
    const rightFirst = 49.88 + (270.21 + 262.14);
    expect(leftFirst).not.toBe(rightFirst);
    const one = totalsOf({ orders: 2, units: 2, revenue: leftFirst }, 3, 2);
    const other = totalsOf({ orders: 2, units: 2, revenue: rightFirst }, 3, 2);
    expect(one.revenue).toBe(582.23);
    expect(other.averageOrderValue).toBe(one.averageOrderValue);
    expect(one.averageOrderValue).toBe(291.12);
  });
});
