import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { startDemoUpstream, type DemoUpstream } from "@/demo-upstream/server";
import { database } from "@/server/db/database";
import { productMetrics as productMetricsRoute } from "@/server/routes/product-metrics";
import { signIn } from "@/server/routes/sign-in";
import { productMetricsEventSchema } from "@/shared/schemas/product-metrics-view";
import { ADMIN_KEY, cookieFrom, dashboardRequest, US_STORE, useUpstream } from "@/test/harness";
import { dataChanges as dataChangesRoute } from "@/server/routes/data-changes";
import { reachDb } from "@/server/db/reach";
import { rollupUsage } from "./bounds";
import { purgeRetained } from "@/server/maintenance/retention";
import { settings } from "@/server/config/settings";
import { registerAllJobs } from "@/server/jobs/catalog";
import { queueDb } from "@/server/jobs/queue";
import { startBackgroundWork, stopBackgroundWork } from "@/server/jobs/worker";
import { setTimeout as sleep } from "node:timers/promises";
import { upstreamClient } from "@/server/upstream/client";
import { createGrant } from "@/server/grants/store";
import { inReach } from "@/server/db/reach";
import { nightly, queueFillsQuietly } from "./fill-job";
import { monthOf } from "./grain";
import { restatements } from "./restatements";

let upstream: DemoUpstream;
let cookie: string;
const params = { params: Promise.resolve({ storeUrl: US_STORE }) };
const EU_STORE = "northwind-eu.myshopify.com";
const EU_KEY = "sk_demo_admin_nw_eu_2a7f94c1e8b3";
/** The process's database with the store's own reach (the rollup tables are under row-level security). */
const storeDb = async () => reachDb(await database(), [US_STORE]);

beforeAll(async () => {
  upstream = await startDemoUpstream({ port: 0 });
  // Signed in with the rollups off: no warm-up here (status.test.ts has it).
  useUpstream(upstream.baseUrl, { ROLLUPS: "off" });
  cookie = cookieFrom(await signIn(dashboardRequest("/api/session", { method: "POST", body: JSON.stringify({ apiKey: ADMIN_KEY }) })));
  useUpstream(upstream.baseUrl, { ROLLUPS: "on", BACKGROUND_JOBS: "on" });
  // The fills the views queue run on this process's worker, as on an instance.
  registerAllJobs();
  startBackgroundWork({ pollMs: 50 });
});
afterAll(async () => {
  await stopBackgroundWork();
  await upstream.close();
});
beforeEach(async () => {
  // The process's database here is PGlite, where the rollups are off unless asked for.
  useUpstream(upstream.baseUrl, { ROLLUPS: "on", BACKGROUND_JOBS: "on" });
  upstream.reset();
  const db = await storeDb();
  await db.query("delete from rollup_days");
  await db.query("delete from rollup_restatements");
  await db.query("delete from rollup_month_use");
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
  it("fills a month once when two views find it missing at once (the queue's key, as across instances)", async () => {
    const before = upstream.requestCounts().products;
    const [a, b] = await Promise.all([
      events("startDate=2026-06-01&endDate=2026-06-10"),
      events("startDate=2026-06-05&endDate=2026-06-20&channel=google"),
    ]);
    for (const { view } of [a, b]) expect(view.freshness).toMatchObject({ daysFromRollups: 0 });
    await vi.waitFor(async () => expect((await rollupUsage(await database())).days).toBe(30), { timeout: 20_000 });
    const fills = await (
      await queueDb()
    ).query<{ n: number }>("select count(*)::int as n from jobs where name = 'rollups.fill' and payload->>'month' = '2026-06-01'");
    expect(fills).toEqual([{ n: 1 }]);
    // Two views' reads and one fill's.
    expect(upstream.requestCounts().products - before).toBe(3);
  });

  it("holds this instance's fills back while it reads a view (a warm-up's fills wait for the first look)", async () => {
    // The view's read of the products answers after a second; the fills queued meanwhile wait for it to end.
    upstream.setFaults([{ route: "products", latencyMs: 1_000, times: 1 }]);
    const before = upstream.requestCounts().products;
    const look = events("startDate=2026-03-01&endDate=2026-03-31");
    await vi.waitFor(() => expect(upstream.requestCounts().products - before).toBe(1));
    queueFillsQuietly(upstreamClient({ apiKey: ADMIN_KEY, requestId: "fill" }), US_STORE, "conversion", ["2026-04-15"]);
    await sleep(600);
    expect(upstream.requestCounts().products - before).toBe(1);
    await look;
    // April's fill, then March's (the view's), once the view has answered.
    await vi.waitFor(async () => expect((await rollupUsage(await database())).days).toBe(30 + 31), { timeout: 20_000 });
  });

  it("fills yesterday's month nightly for a store only an open grant reaches, through the grant", async () => {
    // No view or sign-in here reached the EU store, so this instance holds no key of it: only the grant does.
    const now = new Date();
    const grant = { organizationId: "org_northwind", storeUrl: EU_STORE, keyFingerprint: "fp-nightly", ownerEmail: "owner@example.com" };
    await inReach([EU_STORE], async () => createGrant(await database(), { ...grant, apiKey: EU_KEY, ttlDays: 90 }, now));
    const { detail } = await nightly(now);
    expect(detail).toMatch(/^[1-9]\d* of \d+ stores queued$/);
    const month = monthOf(new Date(now.getTime() - 86_400_000).toISOString().slice(0, 10));
    const fills = async () =>
      (await queueDb()).query<{ state: string }>(
        "select state from jobs where name = 'rollups.fill' and store_url = $1 and payload->>'month' = $2",
        [EU_STORE, month],
      );
    await vi.waitFor(async () => expect(await fills()).toEqual([{ state: "done" }]), { timeout: 20_000 });
    // The other tests count the rollups of the US store alone.
    const eu = reachDb(await database(), [EU_STORE]);
    await eu.query("delete from rollup_days");
    await eu.query("update grants set ended_at = now(), ended_reason = 'revoked' where key_fingerprint = 'fp-nightly'");
  });

  it("says how fresh the figures are, reports days read as progress, and reads nothing upstream the second time", async () => {
    const first = await events("startDate=2026-02-01&endDate=2026-02-28");
    expect(first.view.freshness).toMatchObject({ daysFromUpstream: 28, daysFromRollups: 0, upstreamRequests: 1 });
    const progress = first.lines.filter((line) => line.type === "progress");
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toMatchObject({ percent: expect.any(Number), day: expect.stringMatching(/^2026-02-/) });
    // The fill the view queued stores the month behind the answer.
    await vi.waitFor(async () => expect((await rollupUsage(await database())).days).toBe(28), { timeout: 20_000 });
    const reads = upstream.requestCounts().products;
    // Another filter, so the short-lived view cache does not answer: the rollups do.
    const second = await events("startDate=2026-02-01&endDate=2026-02-28&channel=google");
    expect(upstream.requestCounts().products).toBe(reads);
    expect(second.view.freshness).toMatchObject({ daysFromUpstream: 0, daysFromRollups: 28 });
    expect(Date.parse(second.view.freshness!.asOf)).toBeLessThanOrEqual(Date.now());
  });

  it("reads a view filtered by country, device type, OS, browser or ad upstream every time and keeps nothing for it", async () => {
    for (const filter of ["filterOS=iOS", "filterCountry=US", "filterDeviceType=mobile", "filterBrowser=Safari", "adId=ad_1"]) {
      const reads = upstream.requestCounts().products;
      const { view } = await events(`startDate=2026-02-01&endDate=2026-02-07&${filter}`);
      expect(view.freshness, filter).toBeUndefined();
      expect(upstream.requestCounts().products, filter).toBe(reads + 1);
    }
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

  it("evicts the least recently used months beyond ROLLUP_BUDGET_MB in the daily purge, never on a read", async () => {
    useUpstream(upstream.baseUrl, { ROLLUPS: "on", BACKGROUND_JOBS: "on", ROLLUP_BUDGET_MB: "1" });
    await events("startDate=2025-01-01&endDate=2025-01-31");
    await vi.waitFor(async () => expect((await rollupUsage(await database())).days).toBe(31), { timeout: 20_000 });
    await events("startDate=2025-03-01&endDate=2025-03-31");
    await vi.waitFor(async () => expect((await rollupUsage(await database())).days).toBe(62), { timeout: 20_000 });
    // A month at scale 1 is far below 1 MB: pad the days' size so that the two months go over, one alone does not.
    await (await storeDb()).query("update rollup_days set bytes = 20000");
    await (await storeDb()).query("update rollup_days set used_at = used_at - interval '1 day' where day >= '2025-03-01'");
    // March is viewed (from the rollups): no read evicts, however far over the budget.
    expect((await events("startDate=2025-03-01&endDate=2025-03-31&channel=google")).view.freshness).toMatchObject({ daysFromRollups: 31 });
    expect((await rollupUsage(await database())).days).toBe(62);
    const purged = await purgeRetained(await database(), new Date(), settings().retention, 1024 * 1024);
    expect(purged.rollupDaysEvicted).toBe(31);
    const months = await (await storeDb()).query<{ month: string }>("select distinct to_char(day, 'YYYY-MM') as month from rollup_days");
    // March, used last, is kept whole; January went.
    expect(months).toEqual([{ month: "2025-03" }]);
  });

  it("lists a restated day on the store's data changes and names it on the view of its range", async () => {
    // Held days are read again after a second here, and a month may be filled again each second.
    useUpstream(upstream.baseUrl, { ROLLUPS: "on", BACKGROUND_JOBS: "on", ROLLUP_REVALIDATE_SECONDS: "1" });
    await events("startDate=2026-04-01&endDate=2026-04-05");
    await vi.waitFor(async () => expect((await rollupUsage(await database())).days).toBe(30), { timeout: 20_000 });
    upstream.restate({ storeUrl: US_STORE, date: "2026-04-03", factor: 2 });
    await sleep(1_100);
    // The stale days are read upstream (the new figures), and their fill records what moved.
    const stale = await events("startDate=2026-04-01&endDate=2026-04-05&channel=google");
    expect(stale.view.freshness).toMatchObject({ daysFromRollups: 0, daysFromUpstream: 5 });
    await vi.waitFor(async () => expect(await restatements(await storeDb(), US_STORE)).toHaveLength(1), { timeout: 20_000 });
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
