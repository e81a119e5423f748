import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addDays } from "./date-range";
import { channelStakes } from "./stakes";

const TODAY = "2026-03-31";

describe("channelStakes (what removing a connection stands to lose)", () => {
  it("sums the channel's last 7 and 30 days, today included, and finds its last order", () => {
    const series = [
      { date: "2026-03-31", channel: "google", orders: 2, revenue: 50 },
      { date: "2026-03-25", channel: "google", orders: 1, revenue: 10 },
      { date: "2026-03-24", channel: "google", orders: 4, revenue: 100 },
      { date: "2026-03-02", channel: "google", orders: 1, revenue: 5 },
      { date: "2026-03-01", channel: "google", orders: 9, revenue: 900 },
      { date: "2026-03-30", channel: "facebook", orders: 7, revenue: 70 },
    ];
    expect(channelStakes(series, "google", TODAY)).toEqual({
      last7: { orders: 3, revenue: 60 },
      last30: { orders: 8, revenue: 165 },
      lastOrderDate: "2026-03-31",
    });
    expect(channelStakes(series, "tiktok", TODAY)).toEqual({
      last7: { orders: 0, revenue: 0 },
      last30: { orders: 0, revenue: 0 },
      lastOrderDate: null,
    });
  });

  it("equals the sums of the raw days it covers, whatever the series", () => {
    const point = fc.record({
      ago: fc.integer({ min: 0, max: 89 }),
      channel: fc.constantFrom("google", "facebook"),
      orders: fc.integer({ min: 0, max: 50 }),
      revenue: fc.integer({ min: -1000, max: 100_000 }),
    });
    fc.assert(
      fc.property(fc.array(point, { maxLength: 120 }), (points) => {
        const series = points.map((p) => ({ date: addDays(TODAY, -p.ago), channel: p.channel, orders: p.orders, revenue: p.revenue }));
        const stakes = channelStakes(series, "google", TODAY);
        const within = (days: number) => points.filter((p) => p.channel === "google" && p.ago < days);
        const sum = (days: number) => ({
          orders: within(days).reduce((total, p) => total + p.orders, 0),
          revenue: within(days).reduce((total, p) => total + p.revenue, 0),
        });
        expect(stakes.last7).toEqual(sum(7));
        expect(stakes.last30).toEqual(sum(30));
        const withOrders = points.filter((p) => p.channel === "google" && p.orders > 0).map((p) => p.ago);
        expect(stakes.lastOrderDate).toBe(withOrders.length ? addDays(TODAY, -Math.min(...withOrders)) : null);
      }),
    );
  });
});
