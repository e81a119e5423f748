import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { startDemoUpstream, type DemoUpstream } from "@/demo-upstream/server";
import { database } from "@/server/db/database";
import { productMetricsExport as exportRoute, productMetrics as productMetricsRoute } from "@/server/routes/product-metrics";
import { signIn } from "@/server/routes/sign-in";
import { productMetricsEventSchema } from "@/shared/schemas/product-metrics-view";
import { ADMIN_KEY, cookieFrom, dashboardRequest, US_STORE, useUpstream } from "@/test/harness";
import { dataChanges as dataChangesRoute } from "@/server/routes/data-changes";
import { reachDb } from "@/server/db/reach";
import { rollupUsage } from "./bounds";
import { productsCsv } from "@/server/metrics/export";

let upstream: DemoUpstream;
let cookie: string;
const params = { params: Promise.resolve({ storeUrl: US_STORE }) };
const TABLE = { q: "", sort: "revenue", direction: "desc" } as const;
/** The process's database with the store's own reach (the rollup tables are under row-level security). */
const storeDb = async () => reachDb(await database(), [US_STORE]);

beforeAll(async () => {
  upstream = await startDemoUpstream({ port: 0 });
  useUpstream(upstream.baseUrl, { ROLLUPS: "on" });
  cookie = cookieFrom(await signIn(dashboardRequest("/api/session", { method: "POST", body: JSON.stringify({ apiKey: ADMIN_KEY }) })));
});
afterAll(() => upstream.close());
beforeEach(async () => {
  // The process's database here is PGlite, where the rollups are off unless asked for.
  useUpstream(upstream.baseUrl, { ROLLUPS: "on" });
  upstream.reset();
  const db = await storeDb();
  await db.query("delete from rollup_days");
  await db.query("delete from rollup_restatements");
});
afterEach(() => vi.unstubAllEnvs());

async function events(query: string) {
  const response = await productMetricsRoute(dashboardRequest(`/api/stores/${US_STORE}/product-metrics?${query}`, { cookie }), params);
  const lines = (await response.text())
    .trim()
    .split("\n")
    .map((line) => productMetricsEventSchema.parse(JSON.parse(line)));
  const last = lines.at(-1);
  if (last?.type !== "result") throw new Error(`no result: ${JSON.stringify(last)}`);
  return { lines, view: last.view };
}

describe("product metrics through the day rollups", () => {
  it("says how fresh the figures are, reports days read as progress, and reads nothing upstream the second time", async () => {
    const first = await events("startDate=2026-02-01&endDate=2026-02-28");
    expect(first.view.freshness).toMatchObject({ daysFromUpstream: 28, daysFromRollups: 0, upstreamRequests: 1 });
    const progress = first.lines.filter((line) => line.type === "progress");
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toMatchObject({ percent: expect.any(Number), day: expect.stringMatching(/^2026-02-/) });
    const reads = upstream.requestCounts().products;
    await vi.waitFor(async () => expect((await rollupUsage(await database())).days).toBe(28));
    // Another filter, so the short-lived view cache does not answer: the rollups do.
    const second = await events("startDate=2026-02-01&endDate=2026-02-28&channel=google");
    expect(upstream.requestCounts().products).toBe(reads);
    expect(second.view.freshness).toMatchObject({ daysFromUpstream: 0, daysFromRollups: 28 });
    expect(Date.parse(second.view.freshness!.asOf)).toBeLessThanOrEqual(Date.now());
  });

  it("answers a view filtered by country from its own key: read once, then from the rollups, its products CSV too", async () => {
    const range = "startDate=2026-02-01&endDate=2026-02-07";
    const first = await events(`${range}&filterCountry=US,CA&filterDeviceType=mobile`);
    expect(first.view.freshness).toMatchObject({ daysFromUpstream: 7, daysFromRollups: 0, upstreamRequests: 1 });
    const keyed = async () =>
      (await storeDb()).query<{ key: string; days: number }>(
        "select filter_key as key, count(*)::int as days from rollup_days group by filter_key order by 1",
      );
    await vi.waitFor(async () => expect(await keyed()).toEqual([{ key: "country=CA,US;device=mobile", days: 7 }]));
    const reads = upstream.requestCounts().products;

    // The same filters named another way (not the view cache's key): the same rollup key, nothing read upstream.
    const again = await events(`${range}&filterCountry=CA, US&filterDeviceType=mobile&channel=google`);
    expect(upstream.requestCounts().products).toBe(reads);
    expect(again.view.freshness).toMatchObject({ daysFromUpstream: 0, daysFromRollups: 7, upstreamRequests: 0 });
    expect(again.view.totals.revenue).toBe(first.view.channels.find((c) => c.channel === "google")?.revenue ?? 0);

    // The products CSV is the view's table: answered from the same key.
    const csv = await exportRoute(
      dashboardRequest(
        `/api/stores/${US_STORE}/product-metrics/export?${range}&kind=products&filterCountry=CA,US,US&filterDeviceType=mobile`,
        {
          cookie,
        },
      ),
      params,
    );
    expect(csv.status).toBe(200);
    expect(await csv.text()).toBe(productsCsv(first.view.products, first.view.totals.revenue, TABLE, first.view.currency));
    expect(upstream.requestCounts().products).toBe(reads);

    // The raw rows are the upstream's rows: one read of the range, rollups or not.
    const rows = await exportRoute(
      dashboardRequest(`/api/stores/${US_STORE}/product-metrics/export?${range}&kind=rows&filterCountry=US,CA&filterDeviceType=mobile`, {
        cookie,
      }),
      params,
    );
    expect((await rows.text()).trim().split("\n")).toHaveLength(first.view.totals.rows + 1);
    expect(upstream.requestCounts().products).toBe(reads + 1);

    // Another key's cells are not reused: the unfiltered view of the range reads its days.
    const unfiltered = await events(range);
    expect(unfiltered.view.freshness).toMatchObject({ daysFromUpstream: 7, daysFromRollups: 0 });
  });

  it("with ROLLUP_FILTER_KEYS=0 reads filtered views upstream every time and keeps nothing for them", async () => {
    useUpstream(upstream.baseUrl, { ROLLUPS: "on", ROLLUP_FILTER_KEYS: "0" });
    const reads = upstream.requestCounts().products;
    const { view } = await events("startDate=2026-02-01&endDate=2026-02-07&filterOS=iOS");
    expect(view.freshness).toBeUndefined();
    expect(upstream.requestCounts().products).toBe(reads + 1);
    expect((await rollupUsage(await database())).days).toBe(0);
  });

  it("with ROLLUPS=off works as before: no rollups kept, no freshness", async () => {
    useUpstream(upstream.baseUrl, { ROLLUPS: "off" });
    const reads = upstream.requestCounts().products;
    const { view } = await events("startDate=2026-03-01&endDate=2026-03-07");
    expect(view.freshness).toBeUndefined();
    expect(view.restated).toBeUndefined();
    expect(upstream.requestCounts().products).toBe(reads + 1);
    expect((await rollupUsage(await database())).days).toBe(0);
  });

  it("evicts the least recently used store-days beyond ROLLUP_BUDGET_MB", async () => {
    useUpstream(upstream.baseUrl, { ROLLUPS: "on", ROLLUP_BUDGET_MB: "1" });
    await events("startDate=2025-01-01&endDate=2025-01-31");
    // The days are written after the answer.
    await vi.waitFor(async () => expect((await rollupUsage(await database())).days).toBe(31));
    // A month at scale 1 is far below 1 MB: pad the old days' size so that the next read goes over.
    await (await storeDb()).query("update rollup_days set bytes = 40000");
    await events("startDate=2025-03-01&endDate=2025-03-31");
    await vi.waitFor(async () => expect((await rollupUsage(await database())).bytes).toBeLessThanOrEqual(1024 * 1024));
    const after = await rollupUsage(await database());
    const days = await (
      await storeDb()
    ).query<{ month: string }>("select distinct to_char(day, 'YYYY-MM') as month from rollup_days order by 1");
    // March, used last, is kept whole; what went was January's.
    expect(days.map((row) => row.month)).toContain("2025-03");
    expect(after.days).toBeLessThan(62);
    expect(
      (await (await storeDb()).query<{ n: number }>("select count(*)::int as n from rollup_days where day >= '2025-03-01'"))[0]!.n,
    ).toBe(31);
  });

  it("lists a restated day on the store's data changes and names it on the view of its range", async () => {
    await events("startDate=2026-04-01&endDate=2026-04-05");
    await vi.waitFor(async () => expect((await rollupUsage(await database())).days).toBe(5));
    upstream.restate({ storeUrl: US_STORE, date: "2026-04-03", factor: 2 });
    await (await storeDb()).query("update rollup_days set filled_at = filled_at - interval '2 days'");
    const { view } = await events("startDate=2026-04-01&endDate=2026-04-05&channel=facebook");
    expect(view.restated).toEqual([{ day: "2026-04-03", revenueChange: expect.any(Number), mostly: expect.any(String) }]);
    expect(view.restated![0]!.revenueChange).toBeGreaterThan(0);
    const response = await dataChangesRoute(dashboardRequest(`/api/stores/${US_STORE}/data-changes`, { cookie }), params);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { changes: { day: string; revenue: { change: number } }[] };
    expect(body.changes.map((change) => change.day)).toEqual(["2026-04-03"]);
    expect(body.changes[0]!.revenue.change).toBe(view.restated![0]!.revenueChange);
  });
});
