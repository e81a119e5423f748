import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startDemoUpstream, type DemoUpstream } from "./server";
import { call, KEY, STORE, storePath } from "./test-helpers";

interface Row {
  date: string;
  channel: string;
  revenue: number;
  orders: number;
}

let upstream: DemoUpstream;
beforeAll(async () => {
  upstream = await startDemoUpstream({ port: 0, control: true });
});
beforeEach(() => upstream.reset());
afterAll(() => upstream.close());

async function revenueByDate(channel: string, query: Record<string, string> = {}): Promise<Map<string, number>> {
  const res = await call(upstream, storePath("ad-metrics", STORE.nwUs, "/products"), {
    query: { startDate: "2026-03-01", endDate: "2026-03-14", ...query },
  });
  expect(res.status).toBe(200);
  const sums = new Map<string, number>();
  for (const row of res.body as Row[]) if (row.channel === channel) sums.set(row.date, (sums.get(row.date) ?? 0) + row.revenue);
  return sums;
}

const rule = { storeUrl: STORE.nwUs, channel: "facebook", from: "2026-03-08" };

describe("anomaly injection", () => {
  it("drops a channel's revenue to near zero from the given day, and leaves the days before it alone", async () => {
    const before = await revenueByDate("facebook");
    upstream.setAnomalies([rule]);
    const after = await revenueByDate("facebook");
    for (const date of ["2026-03-01", "2026-03-05", "2026-03-07"]) expect(after.get(date)).toBe(before.get(date));
    // About 2% of the lines are kept: a few a day at this scale, so the week is compared as a whole.
    const week = (sums: Map<string, number>) => [...sums].filter(([date]) => date >= "2026-03-08").reduce((sum, [, v]) => sum + v, 0);
    expect(week(before)).toBeGreaterThan(10_000);
    expect(week(after)).toBeLessThan(week(before) * 0.08);
  });

  it("leaves other channels and other stores alone, and is the same on every read", async () => {
    const google = await revenueByDate("google");
    upstream.setAnomalies([rule]);
    expect(await revenueByDate("google")).toEqual(google);
    expect(await revenueByDate("facebook")).toEqual(await revenueByDate("facebook"));
    const eu = await call(upstream, storePath("ad-metrics", STORE.nwEu, "/products"), {
      key: KEY.adminEu,
      query: { startDate: "2026-03-08", endDate: "2026-03-08", channel: "facebook" },
    });
    expect((eu.body as Row[]).length).toBeGreaterThan(0);
  });

  it("applies to a channel-filtered read and ends on `to`", async () => {
    upstream.setAnomalies([{ ...rule, to: "2026-03-10", keep: 0 }]);
    const filtered = await revenueByDate("facebook", { channel: "facebook" });
    expect(filtered.get("2026-03-09")).toBeUndefined();
    expect(filtered.get("2026-03-11")!).toBeGreaterThan(0);
  });

  it("is set, listed and reset through the control endpoint", async () => {
    const put = await call(upstream, "//__control/anomalies", { method: "PUT", body: [rule], key: null });
    expect(put.status).toBe(200);
    const state = await call(upstream, "//__control/state", { key: null });
    expect((state.body as { anomalies: unknown[] }).anomalies).toEqual([rule]);
    const bad = await call(upstream, "//__control/anomalies", { method: "PUT", body: [{ ...rule, from: "March" }], key: null });
    expect(bad.status).toBe(400);
    await call(upstream, "//__control/reset", { method: "POST", key: null });
    const reset = await call(upstream, "//__control/state", { key: null });
    expect((reset.body as { anomalies: unknown[] }).anomalies).toEqual([]);
  });
});
