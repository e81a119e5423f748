import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as activityRoute } from "@/app/api/activity/route";
import { GET as activityExportRoute } from "@/app/api/activity/export/route";
import { GET as inboxRoute } from "@/app/api/notifications/route";
import { PATCH as markRoute } from "@/app/api/notifications/[id]/route";
import { GET as outboxRoute } from "@/app/api/outbox/route";
import { GET as runsRoute } from "@/app/api/runs/route";
import { describeDemo } from "@/demo-upstream/describe";
import { startDemoUpstream, type DemoUpstream } from "@/demo-upstream/server";
import { appendAudit } from "@/server/audit/audit";
import { database } from "@/server/db/database";
import { reachDb } from "@/server/db/reach";
import { addNotification } from "@/server/alerts/notifications";
import { beginDelivery } from "@/server/delivery/ledger";
import { enqueue } from "@/server/jobs/queue";
import { ADMIN_KEY, cookieFrom, dashboardRequest, US_STORE, useUpstream } from "@/test/harness";
import { signIn } from "./sign-in";

/**
 * The organization-wide pages read the stores of the session's reach, never an organization:
 * a key of the same organization's other store sees nothing of the first store, and a filter
 * or an id naming it answers 404, as a store that does not exist does.
 */
const EU_KEY = "sk_demo_admin_nw_eu_2a7f94c1e8b3";
const EU_STORE = describeDemo().keys.find((key) => key.key === EU_KEY)!.storeUrl!;
const ORGANIZATION = describeDemo().keys.find((key) => key.key === ADMIN_KEY)!.organizationId!;

let upstream: DemoUpstream;
const cookies: Record<string, string> = {};
const planted = { auditId: "", notificationId: "", deliveryKey: `outbox:${Date.now()}`, jobId: "" };

async function cookieFor(apiKey: string) {
  return cookieFrom(await signIn(dashboardRequest("/api/session", { method: "POST", body: JSON.stringify({ apiKey }) })));
}

async function read(handler: (request: Request) => Promise<Response>, path: string, cookie: string) {
  const response = await handler(dashboardRequest(path, { cookie }));
  return { status: response.status, text: await response.text() };
}

beforeAll(async () => {
  upstream = await startDemoUpstream({ port: 0, control: true });
  useUpstream(upstream.baseUrl);
  cookies.us = await cookieFor(ADMIN_KEY);
  cookies.eu = await cookieFor(EU_KEY);
  const db = reachDb(await database(), [US_STORE]);
  const store = { organizationId: ORGANIZATION, storeUrl: US_STORE };
  planted.auditId = await appendAudit(db, {
    at: new Date(),
    ...store,
    userEmail: "ada@example.com",
    sessionId: null,
    action: "tracking-connection.remove",
    outcome: "succeeded",
    status: 200,
    target: { connectionId: "px_reach_test", connectionName: "Reach pixel", channel: "facebook" },
    requestId: null,
    upstreamRequestId: null,
    idempotencyKey: null,
  });
  const note = await addNotification(
    db,
    store,
    { ruleId: "rule_reach", episodeId: "episode_reach", kind: "alert_fired", title: "US revenue fell", body: {} },
    new Date(),
  );
  planted.notificationId = note.id;
  await beginDelivery(
    db,
    {
      ...store,
      key: planted.deliveryKey,
      recipient: "team@example.com",
      subject: "US digest",
      html: "<p>US</p>",
      textBody: "US",
      headers: {},
      channel: "outbox",
    },
    30_000,
  );
  planted.jobId = (await enqueue("digest.send", {}, { ...store, runAt: new Date(Date.now() + 3_600_000), db })).id;
});
afterAll(() => upstream.close());

describe("the organization-wide pages, with the same organization's other store's key", () => {
  it("show the owner the planted rows, each with its store named", async () => {
    const activity = await read(activityRoute, "/api/activity", cookies.us!);
    expect(activity.text).toContain(planted.auditId);
    expect(JSON.parse(activity.text).stores).toEqual([{ url: US_STORE, name: US_STORE }]);
    expect((await read(inboxRoute, "/api/notifications", cookies.us!)).text).toContain(planted.notificationId);
    expect((await read(outboxRoute, "/api/outbox", cookies.us!)).text).toContain(planted.deliveryKey);
    expect((await read(runsRoute, "/api/runs", cookies.us!)).text).toContain(`"id":"${planted.jobId}"`);
  });

  it("list none of another store's rows to a key of the same organization", async () => {
    for (const [handler, path] of [
      [activityRoute, "/api/activity"],
      [activityExportRoute, "/api/activity/export"],
      [inboxRoute, "/api/notifications"],
      [outboxRoute, "/api/outbox"],
      [runsRoute, "/api/runs"],
    ] as const) {
      const answer = await read(handler, path, cookies.eu!);
      expect(answer.status, path).toBe(200);
      for (const secret of [planted.auditId, planted.notificationId, planted.deliveryKey, "US revenue fell", US_STORE]) {
        expect(answer.text, `${path} shows ${secret}`).not.toContain(secret);
      }
    }
    expect(JSON.parse((await read(activityRoute, "/api/activity", cookies.eu!)).text).stores).toEqual([{ url: EU_STORE, name: EU_STORE }]);
  });

  it("answer 404 to a store filter or an id outside the reach, as to a store that does not exist", async () => {
    const store = encodeURIComponent(US_STORE);
    for (const [handler, path] of [
      [activityRoute, `/api/activity?store=${store}`],
      [activityExportRoute, `/api/activity/export?store=${store}`],
      [activityRoute, `/api/activity?entry=${planted.auditId}`],
      [inboxRoute, `/api/notifications?store=${store}`],
      [outboxRoute, `/api/outbox?store=${store}`],
      [runsRoute, `/api/runs?store=${store}`],
      [runsRoute, "/api/runs?store=no-such-store.example"],
    ] as const) {
      const answer = await read(handler, path, cookies.eu!);
      expect(answer.status, path).toBe(404);
      expect(answer.text, path).not.toContain(planted.auditId);
    }
    const marked = await markRoute(
      dashboardRequest(`/api/notifications/${planted.notificationId}`, {
        method: "PATCH",
        cookie: cookies.eu,
        body: JSON.stringify({ read: true }),
      }),
      { params: { id: planted.notificationId } },
    );
    expect(marked.status).toBe(404);
    const inbox = JSON.parse((await read(inboxRoute, "/api/notifications", cookies.us!)).text) as {
      notifications: { id: string; read: boolean }[];
    };
    expect(inbox.notifications.find((note) => note.id === planted.notificationId)?.read).toBe(false);
  });

  it("narrow the owner's pages to one store of the reach with ?store=", async () => {
    const answer = await read(activityRoute, `/api/activity?store=${encodeURIComponent(US_STORE)}`, cookies.us!);
    expect(answer.status).toBe(200);
    expect(answer.text).toContain(planted.auditId);
  });
});
