import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { startDemoUpstream, type DemoUpstream } from "@/demo-upstream/server";
import { database } from "@/server/db/database";
import { reachDb } from "@/server/db/reach";
import { queueDb } from "@/server/jobs/queue";
import { rollups } from "@/server/routes/rollups";
import { signIn } from "@/server/routes/sign-in";
import { upstreamClient } from "@/server/upstream/client";
import { rollupStatusSchema } from "@/shared/schemas/rollups";
import { ADMIN_KEY, cookieFrom, dashboardRequest, US_STORE, useUpstream } from "@/test/harness";
import { fillDays } from "./fill";

let upstream: DemoUpstream;
const status = (cookie: string, storeUrl = US_STORE) =>
  rollups(dashboardRequest(`/api/stores/${storeUrl}/rollups`, { cookie }), { params: Promise.resolve({ storeUrl }) });
const fills = async () =>
  (
    await (
      await queueDb()
    ).query<{ month: string; runAt: Date }>(
      `select payload->>'month' as month, run_at as "runAt" from jobs where name = 'rollups.fill' and store_url = $1 order by run_at, id`,
      [US_STORE],
    )
  ).map((row) => row.month);

beforeAll(async () => {
  upstream = await startDemoUpstream({ port: 0 });
});
afterAll(() => upstream.close());
afterEach(() => vi.unstubAllEnvs());

describe("GET /api/stores/{storeUrl}/rollups and the warm-up", () => {
  it("says the rollups are off, with nothing held, when ROLLUPS=off", async () => {
    useUpstream(upstream.baseUrl, { ROLLUPS: "off" });
    const cookie = cookieFrom(
      await signIn(dashboardRequest("/api/session", { method: "POST", body: JSON.stringify({ apiKey: ADMIN_KEY }) })),
    );
    const response = await status(cookie);
    expect(response.status).toBe(200);
    expect(rollupStatusSchema.parse(await response.json())).toEqual({
      enabled: false,
      filling: false,
      percent: 0,
      heldFrom: null,
      heldTo: null,
      asOf: null,
    });
  });

  it("queues the last 13 months after a sign-in, newest first, and says how much is held as fills land", async () => {
    // The queue runs nothing here (no worker started): the fills stay queued while the test runs one itself.
    useUpstream(upstream.baseUrl, { ROLLUPS: "on", BACKGROUND_JOBS: "on" });
    await (await queueDb()).query("delete from jobs where name = 'rollups.fill'");
    const cookie = cookieFrom(
      await signIn(dashboardRequest("/api/session", { method: "POST", body: JSON.stringify({ apiKey: ADMIN_KEY }) })),
    );
    await vi.waitFor(async () => expect(await fills()).toHaveLength(13));
    const months = await fills();
    expect(months).toEqual([...months].sort().reverse());
    const thisMonth = `${new Date().toISOString().slice(0, 7)}-01`;
    expect([thisMonth, months[1]]).toContain(months[0]);

    const before = rollupStatusSchema.parse(await (await status(cookie)).json());
    expect(before).toMatchObject({ enabled: true, filling: true, percent: 0, heldFrom: null, heldTo: null, asOf: null });

    // One month filled (what the first job does): a 13th of the year or so is held.
    const db = reachDb(await database(), [US_STORE]);
    await fillDays(
      upstreamClient({ apiKey: ADMIN_KEY, requestId: "req_status" }),
      { storeUrl: US_STORE, source: "conversion" },
      [months[1]!],
      {
        db,
        freshDays: 3,
        revalidateSeconds: 86_400,
      },
    );
    const after = rollupStatusSchema.parse(await (await status(cookie)).json());
    expect(after.heldFrom).toBe(months[1]);
    expect(after.heldTo?.slice(0, 7)).toBe(months[1]!.slice(0, 7));
    expect(after.percent).toBeGreaterThanOrEqual(6);
    expect(after.percent).toBeLessThanOrEqual(9);
    expect(Date.parse(after.asOf!)).toBeLessThanOrEqual(Date.now());
    await db.query("delete from rollup_days");
    await (await queueDb()).query("delete from jobs where name = 'rollups.fill'");
  });

  it("answers 404 for a store the key does not reach, as every store route does", async () => {
    useUpstream(upstream.baseUrl, { ROLLUPS: "on", BACKGROUND_JOBS: "off" });
    const cookie = cookieFrom(
      await signIn(dashboardRequest("/api/session", { method: "POST", body: JSON.stringify({ apiKey: ADMIN_KEY }) })),
    );
    const response = await status(cookie, "kumo-living.jp");
    expect(response.status).toBe(404);
  });
});
