import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startDemoUpstream, type DemoUpstream } from "@/demo-upstream/server";
import type { AlertRuleInput } from "@/shared/schemas/alert";
import { upstreamClient } from "@/server/upstream/client";
import { FACEBOOK_ORDERS_DROP } from "@/test/alert-rules";
import { ADMIN_KEY, US_STORE, useUpstream } from "@/test/harness";
import { BACKTEST_DAYS, backtestRule, checkRule, lastCompletePeriod } from "./check";
import { RunReads, type Summary } from "./reads";

describe("the period a check judges", () => {
  it("is yesterday, or the hour before, on the store's clock, across daylight-saving changes", () => {
    // 02:30 UTC is still the evening before in New York.
    expect(lastCompletePeriod("day", "America/New_York", new Date("2026-11-24T02:30:00Z"))).toBe("2026-11-22");
    expect(lastCompletePeriod("day", "Asia/Tokyo", new Date("2026-11-24T02:30:00Z"))).toBe("2026-11-23");
    expect(lastCompletePeriod("hour", "America/New_York", new Date("2026-11-24T02:30:00Z"))).toBe("2026-11-23 20:00");
    // The night clocks go back (1 November 2026, 02:00 EDT → 01:00 EST): 06:30 UTC is 01:30 EST.
    expect(lastCompletePeriod("hour", "America/New_York", new Date("2026-11-01T06:30:00Z"))).toBe("2026-11-01 01:00");
    expect(lastCompletePeriod("day", "Not/A_Zone", new Date("2026-11-24T02:30:00Z"))).toBe("2026-11-23");
  });
});

describe("checks and backtests against the demo upstream", () => {
  let demo: DemoUpstream;
  beforeAll(async () => {
    demo = await startDemoUpstream({ port: 0 });
  });
  afterAll(() => demo.close());
  beforeEach(() => {
    useUpstream(demo.baseUrl);
    demo.reset();
  });

  const rule = FACEBOOK_ORDERS_DROP;
  const context = () => ({
    upstream: upstreamClient({ apiKey: ADMIN_KEY, requestId: "test", readOnly: true }),
    reads: new RunReads(),
    storeUrl: US_STORE,
    savedViewSearch: null,
  });
  const now = new Date("2026-06-20T18:00:00Z");

  it("marks where an injected drop starts in the last 90 days, and judges each day", async () => {
    demo.setAnomalies([{ storeUrl: US_STORE, channel: "facebook", from: "2026-05-10", to: "2026-05-12" }]);
    const result = await backtestRule(rule, context(), now);
    expect(result.periods).toHaveLength(BACKTEST_DAYS);
    expect(result.periods.at(-1)!.period).toBe("2026-06-19");
    expect(result.firedOn).toContain("2026-05-10");
    expect(result.periods.find((period) => period.period === "2026-05-13")!.fires).toBe(false);
  });

  it("narrows the read by a saved view's filters, and judges an hour against the same hour of earlier weeks", async () => {
    const reads = new RunReads();
    const hourly = { ...rule, granularity: "hour", condition: { kind: "threshold", operator: "above", threshold: -1 } } as const;
    const check = await checkRule(hourly, { ...context(), reads, savedViewSearch: "country=US&device=mobile" }, now);
    expect(check.period).toBe("2026-06-20 13:00");
    expect(check.fires).toBe(true);
    expect(check.whatMoved!.channels.every((mover) => mover.key === "facebook")).toBe(true);
    expect(demo.requestCounts().products).toBe(1);
  });
});

describe("an anomaly rule on a short history", () => {
  /** A store whose first sales were two weeks before the judged day: the same weekday has data twice. */
  const summary = (days: string[]): Summary => {
    const sums = (orders: number) => ({ total: { revenue: orders * 10, orders, units: orders }, channels: new Map(), products: new Map() });
    return {
      currency: "USD",
      periods: new Map(days.map((day, index) => [day, sums(index === days.length - 1 ? 0 : 500)])),
      productNames: new Map(),
    };
  };
  const rule: AlertRuleInput = {
    name: "Orders fell",
    metric: "orders",
    target: { kind: "store" },
    savedViewId: null,
    granularity: "day",
    condition: { kind: "anomaly", direction: "down", sensitivity: "high", minVolume: 1, weeks: 8 },
    emails: [],
    webhookUrl: null,
  };
  const context = (days: string[]) => ({
    upstream: upstreamClient({ apiKey: ADMIN_KEY, requestId: "test", readOnly: true }),
    reads: {
      profile: async () => ({ timezone: "UTC" }),
      summary: async () => summary(days),
      daySummary: async () => summary(days),
    } as unknown as RunReads,
    storeUrl: US_STORE,
    savedViewSearch: null,
  });
  const now = new Date("2026-06-20T12:00:00Z");

  it("counts only the weeks that have data, and is learning (n of 4 weeks) without firing, in checks and backtests alike", async () => {
    const days = ["2026-06-05", "2026-06-12", "2026-06-19"];
    const check = await checkRule(rule, context(days), now);
    expect(check).toMatchObject({ period: "2026-06-19", value: 0, fires: false, learningWeeks: 2 });
    const backtest = await backtestRule(rule, context(days), now);
    expect(backtest.periods.at(-1)).toMatchObject({ period: "2026-06-19", fires: false, learningWeeks: 2 });
    expect(backtest.firedOn).toEqual([]);

    // With four earlier weeks of data the same fall fires, and the rule is no longer learning.
    const judged = await checkRule(rule, context(["2026-05-22", "2026-05-29", ...days]), now);
    expect(judged.fires).toBe(true);
    expect(judged.learningWeeks).toBeUndefined();
  });
});

describe("a threshold rule's backtest", () => {
  /** Orders of 100 on every day but the last, 5 on it. */
  const days = Array.from({ length: 120 }, (_, index) => new Date(Date.UTC(2026, 1, 21 + index)).toISOString().slice(0, 10));
  const summary: Summary = {
    currency: "USD",
    periods: new Map(
      days.map((day, index) => [
        day,
        { total: { revenue: 0, orders: index === days.length - 1 ? 5 : 100, units: 0 }, channels: new Map(), products: new Map() },
      ]),
    ),
    productNames: new Map(),
  };
  const rule: AlertRuleInput = {
    name: "Orders below 18",
    metric: "orders",
    target: { kind: "store" },
    savedViewId: null,
    granularity: "day",
    condition: { kind: "threshold", operator: "below", threshold: 18 },
    emails: [],
    webhookUrl: null,
  };

  it("gives as Usual the usual value (the median of the same weekday), never the threshold again", async () => {
    const context = {
      upstream: upstreamClient({ apiKey: ADMIN_KEY, requestId: "test", readOnly: true }),
      reads: {
        profile: async () => ({ timezone: "UTC" }),
        summary: async () => summary,
        daySummary: async () => summary,
      } as unknown as RunReads,
      storeUrl: US_STORE,
      savedViewSearch: null,
    };
    const backtest = await backtestRule(rule, context, new Date(Date.parse(`${days.at(-1)}T12:00:00Z`) + 86_400_000));
    const last = backtest.periods.at(-1)!;
    expect(last).toMatchObject({ period: days.at(-1), value: 5, fires: true });
    expect(last.baseline).toBe(100);
    expect(backtest.periods.every((period) => period.baseline !== 18)).toBe(true);
  });
});
