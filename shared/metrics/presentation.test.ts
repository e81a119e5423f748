import { describe, expect, it } from "vitest";
import { bucketSeries, productRows, relativeChange, tablePage, topProducts, wrapLabel } from "./presentation";

const products = [
  { productId: "a", name: "Beanie", sku: "B-1", orders: 2, units: 4, revenue: 40 },
  { productId: "b", name: "Mug", sku: "M-1", orders: 5, units: 5, revenue: 50 },
  { productId: "c", name: null, sku: null, orders: 0, units: 0, revenue: 0 },
  { productId: "d", name: "Scarf", sku: "S-9", orders: 1, units: 1, revenue: 8 },
];

describe("the product table", () => {
  const rows = productRows(products, 100);

  it("derives average price, revenue per order and share, empty when undefined", () => {
    expect(rows[0]).toMatchObject({ averagePrice: 10, revenuePerOrder: 20, share: 0.4 });
    expect(rows[2]).toMatchObject({ averagePrice: null, revenuePerOrder: null, share: 0 });
  });

  it("sorts either way with empty values last, searches name, SKU and ID, and pages", () => {
    const byPrice = tablePage(rows, { q: "", sort: "averagePrice", direction: "asc", page: 1, pageSize: 10 });
    expect(byPrice.rows.map((row) => row.productId)).toEqual(["d", "a", "b", "c"]);
    expect(tablePage(rows, { q: "s-9", sort: "revenue", direction: "desc", page: 1, pageSize: 10 }).rows.map((r) => r.productId)).toEqual([
      "d",
    ]);
    const paged = tablePage(rows, { q: "", sort: "revenue", direction: "desc", page: 9, pageSize: 3 });
    expect(paged).toMatchObject({ page: 2, pageCount: 2, matching: 4 });
    expect(paged.rows.map((row) => row.productId)).toEqual(["c"]);
  });
});

describe("charts", () => {
  it("keeps the top products and groups the rest as Other", () => {
    expect(topProducts(products, 2)).toEqual([
      { name: "Mug", revenue: 50 },
      { name: "Beanie", revenue: 40 },
      { name: "Other", revenue: 8 },
    ]);
  });

  it("sums days into weeks per channel, filling missing channels with zero", () => {
    const { points, channels } = bucketSeries(
      [
        { date: "2026-03-02", channel: "google", revenue: 1, orders: 1, units: 1 },
        { date: "2026-03-03", channel: "google", revenue: 2, orders: 1, units: 1 },
        { date: "2026-03-09", channel: "email", revenue: 5, orders: 2, units: 2 },
      ],
      "week",
      "revenue",
    );
    expect(channels).toEqual(["email", "google"]);
    expect(points.map((point) => ({ bucket: point.bucket, ...point.values }))).toEqual([
      { bucket: "2026-03-02", google: 3, email: 0 },
      { bucket: "2026-03-09", email: 5, google: 0 },
    ]);
  });

  it("keeps channels named like the bucket column or an object's prototype", () => {
    const { points, channels } = bucketSeries(
      [
        { date: "2026-03-02", channel: "bucket", revenue: 1, orders: 1, units: 1 },
        { date: "2026-03-02", channel: "__proto__", revenue: 2, orders: 1, units: 1 },
      ],
      "day",
      "revenue",
    );
    expect(channels).toEqual(["__proto__", "bucket"]);
    expect(points[0]!.bucket).toBe("2026-03-02");
    expect(points[0]!.values["__proto__"]).toBe(2);
    expect(points[0]!.values["bucket"]).toBe(1);
  });

  it("adds refunds to Other, so the bars add up to the total", () => {
    const withRefunds = [...products, { productId: "e", name: "Refunded", sku: null, orders: 1, units: 1, revenue: -30 }];
    const bars = topProducts(withRefunds, 2);
    expect(bars.at(-1)).toEqual({ name: "Other", revenue: -22 });
    expect(bars.reduce((sum, bar) => sum + bar.revenue, 0)).toBe(68);
  });

  it("gives no change against an empty comparison period", () => {
    expect(relativeChange(110, 100)).toBeCloseTo(0.1);
    expect(relativeChange(5, 0)).toBeNull();
    expect(relativeChange(null, 3)).toBeNull();
  });
});

describe("wrapLabel", () => {
  it("breaks between words, so colour variants stay apart", () => {
    expect(wrapLabel("Summit Insulated Jacket — Forest Green", 24, 3)).toEqual(["Summit Insulated Jacket", "— Forest Green"]);
    expect(wrapLabel("Summit Insulated Jacket — Slate Blue", 24, 3)).toEqual(["Summit Insulated Jacket", "— Slate Blue"]);
  });

  it("splits a word longer than a line and ends an overlong label in an ellipsis", () => {
    expect(wrapLabel("prod_0123456789abcdefghij0123", 10, 3)).toEqual(["prod_01234", "56789abcde", "fghij0123"]);
    const lines = wrapLabel("word ".repeat(40), 10, 2);
    expect(lines).toHaveLength(2);
    expect(lines[1]!.endsWith("…")).toBe(true);
    expect(lines.every((line) => line.length <= 10)).toBe(true);
  });
});
