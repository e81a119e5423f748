import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as activityRoute } from "@/app/api/activity/route";
import { GET as activityExportRoute } from "@/app/api/activity/export/route";
import { describeDemo } from "@/demo-upstream/describe";
import { startDemoUpstream, type DemoUpstream } from "@/demo-upstream/server";
import { appendAudit } from "@/server/audit/audit";
import { database } from "@/server/db/database";
import { reachDb } from "@/server/db/reach";
import { dayBoundsIn } from "@/shared/activity-filters";
import { storeProfileSchema } from "@/shared/schemas/store";
import { interpretTimeZone } from "@/shared/store-locale";
import { ADMIN_KEY, cookieFrom, dashboardRequest, US_STORE, useUpstream } from "@/test/harness";
import { signIn } from "./sign-in";

/** The Activity page's days are the store's days, as its entries' times are shown. */
const ORGANIZATION = describeDemo().keys.find((key) => key.key === ADMIN_KEY)!.organizationId!;
const DAY = "2003-03-10";
const HOUR_MS = 3_600_000;

let upstream: DemoUpstream;
let cookie = "";
const planted: Record<"before" | "first" | "last" | "after", string> = { before: "", first: "", last: "", after: "" };

beforeAll(async () => {
  upstream = await startDemoUpstream({ port: 0, control: true });
  useUpstream(upstream.baseUrl);
  cookie = cookieFrom(await signIn(dashboardRequest("/api/session", { method: "POST", body: JSON.stringify({ apiKey: ADMIN_KEY }) })));
  const profile = await fetch(`${upstream.baseUrl}/store-data/${US_STORE}`, { headers: { "x-api-key": ADMIN_KEY } });
  const zone = interpretTimeZone(storeProfileSchema.parse(await profile.json()).timezone).zone;
  const { from, to } = dayBoundsIn({ from: DAY, to: DAY }, zone);
  // The store's zone is not UTC's: its day starts at another hour than UTC's, so a UTC day would miss an entry.
  expect(from!.getUTCHours()).not.toBe(0);
  const db = reachDb(await database(), [US_STORE]);
  const at = {
    before: from!.getTime() - 60_000,
    first: from!.getTime() + 60_000,
    last: to!.getTime() - 60_000,
    after: to!.getTime() + HOUR_MS,
  };
  for (const [name, time] of Object.entries(at) as [keyof typeof planted, number][]) {
    planted[name] = await appendAudit(db, {
      at: new Date(time),
      organizationId: ORGANIZATION,
      storeUrl: US_STORE,
      userEmail: "zone@example.com",
      sessionId: null,
      action: "tracking-connection.remove",
      outcome: "succeeded",
      status: 200,
      target: { connectionId: `px_zone_${name}`, connectionName: `Zone ${name}`, channel: "facebook" },
      requestId: null,
      upstreamRequestId: null,
      idempotencyKey: null,
    });
  }
});
afterAll(() => upstream.close());

describe("GET /api/activity?from=&to=", () => {
  it("keeps the entries of the store's day, from its first minute to its last, in the list and the export", async () => {
    const query = `from=${DAY}&to=${DAY}&person=zone@example.com`;
    const list = await activityRoute(dashboardRequest(`/api/activity?${query}`, { cookie }));
    expect(list.status).toBe(200);
    const ids = ((await list.json()) as { entries: { id: string }[] }).entries.map((entry) => entry.id);
    expect(ids.sort()).toEqual([planted.first, planted.last].sort());
    const csv = await (await activityExportRoute(dashboardRequest(`/api/activity/export?${query}`, { cookie }))).text();
    expect(csv).toContain(planted.first);
    expect(csv).toContain(planted.last);
    expect(csv).not.toContain(planted.before);
    expect(csv).not.toContain(planted.after);
  });
});
