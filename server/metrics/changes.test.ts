import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ProductMetricsAggregator, type MetricRow } from "./aggregate";
import { biggestChanges } from "./changes";

const row = (product_id: string, channel: string, revenue: number, product_name: string | null = null): MetricRow => ({
  date: "2026-03-01",
  channel,
  product_id,
  product_name,
  orders: 1,
  units: 1,
  revenue,
});

function changesOf(current: MetricRow[], previous: MetricRow[], limit?: number) {
  const [now, before] = [new ProductMetricsAggregator(), new ProductMetricsAggregator()];
  current.forEach((r) => now.add(r));
  previous.forEach((r) => before.add(r));
  return biggestChanges(now.revenues(), before.revenues(), 2, limit);
}

/** The ranking computed straight from the rows: every key's cents in each period, sorted in full. */
function direct(current: MetricRow[], previous: MetricRow[], keyOf: (row: MetricRow) => string, limit: number) {
  const cents = (rows: MetricRow[], key: string) =>
    rows.filter((r) => keyOf(r) === key).reduce((sum, r) => sum + Math.round(r.revenue * 100), 0);
  const total = (rows: MetricRow[]) => rows.reduce((sum, r) => sum + Math.round(r.revenue * 100), 0);
  const totalChange = total(current) - total(previous);
  const keys = [...new Set([...current, ...previous].map(keyOf))].sort();
  const all = keys.map((key) => {
    const [now, before] = [cents(current, key), cents(previous, key)];
    return {
      key,
      change: (now - before) / 100,
      percent: before === 0 ? null : (now - before) / Math.abs(before),
      shareOfChange: totalChange === 0 ? null : (now - before) / totalChange,
      presence: !previous.some((r) => keyOf(r) === key) ? "new" : !current.some((r) => keyOf(r) === key) ? "gone" : "both",
    };
  });
  return {
    totalChange: totalChange / 100,
    risers: all
      .filter((item) => item.change > 0)
      .sort((a, b) => b.change - a.change)
      .slice(0, limit),
    fallers: all
      .filter((item) => item.change < 0)
      .sort((a, b) => a.change - b.change)
      .slice(0, limit),
  };
}

const rowArbitrary = fc
  .record({
    product: fc.constantFrom("p1", "p2", "p3", "p4", "p5", "p6", "p7"),
    channel: fc.constantFrom("google", "email", "tiktok"),
    cents: fc.integer({ min: 0, max: 50_000 }),
  })
  .map(({ product, channel, cents }) => row(product, channel, cents / 100));

describe("biggestChanges", () => {
  it("ranks risers and fallers with their change, percent and share of the total change", () => {
    const changes = changesOf(
      [row("p1", "google", 150, "Beanie"), row("p2", "email", 20), row("p4", "google", 30, "New scarf")],
      [row("p1", "google", 100, "Beanie"), row("p2", "email", 60), row("p3", "tiktok", 10, "Old mittens")],
    );
    expect(changes.totalChange).toBe(30);
    expect(changes.products.risers).toEqual([
      { key: "p1", name: "Beanie", current: 150, previous: 100, change: 50, percent: 0.5, shareOfChange: 50 / 30, presence: "both" },
      { key: "p4", name: "New scarf", current: 30, previous: 0, change: 30, percent: null, shareOfChange: 1, presence: "new" },
    ]);
    expect(changes.products.fallers.map((item) => [item.key, item.change, item.presence, item.name])).toEqual([
      ["p2", -40, "both", null],
      ["p3", -10, "gone", "Old mittens"],
    ]);
    expect(changes.channels.risers.map((item) => [item.key, item.change])).toEqual([["google", 80]]);
    expect(changes.channels.fallers.map((item) => [item.key, item.change, item.presence])).toEqual([
      ["email", -40, "both"],
      ["tiktok", -10, "gone"],
    ]);
  });

  it("keeps the limit, breaks ties by key, and gives no share when the total did not move", () => {
    const changes = changesOf([row("b", "google", 10), row("a", "google", 10), row("c", "email", 10)], [row("z", "google", 30)], 2);
    expect(changes.totalChange).toBe(0);
    expect(changes.products.risers.map((item) => item.key)).toEqual(["a", "b"]);
    expect(changes.products.risers.every((item) => item.shareOfChange === null)).toBe(true);
  });

  it("matches a direct computation from the raw rows", () => {
    fc.assert(
      fc.property(fc.array(rowArbitrary, { maxLength: 40 }), fc.array(rowArbitrary, { maxLength: 40 }), (current, previous) => {
        const changes = changesOf(current, previous, 3);
        for (const [ranking, keyOf] of [
          [changes.products, (r: MetricRow) => r.product_id],
          [changes.channels, (r: MetricRow) => r.channel],
        ] as const) {
          const expected = direct(current, previous, keyOf, 3);
          const pick = (items: typeof ranking.risers) =>
            items.map(({ key, change, percent, shareOfChange, presence }) => ({ key, change, percent, shareOfChange, presence }));
          const close = (items: ReturnType<typeof direct>["risers"]) =>
            items.map((item) => ({
              ...item,
              percent: item.percent === null ? null : expect.closeTo(item.percent, 9),
              shareOfChange: item.shareOfChange === null ? null : expect.closeTo(item.shareOfChange, 9),
            }));
          expect(changes.totalChange).toBe(expected.totalChange);
          expect(pick(ranking.risers)).toEqual(close(expected.risers));
          expect(pick(ranking.fallers)).toEqual(close(expected.fallers));
        }
      }),
    );
  });
});
