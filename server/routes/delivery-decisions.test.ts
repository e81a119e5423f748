import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { startDemoUpstream, type DemoUpstream } from "@/demo-upstream/server";
import { reachDb } from "@/server/db/reach";
import { database, type Db } from "@/server/db/database";
import { registerResendJob } from "@/server/delivery/resend-job";
import { startBackgroundWork, stopBackgroundWork } from "@/server/jobs/worker";
import { activityResponseSchema } from "@/shared/schemas/activity";
import { digestSchema } from "@/shared/schemas/digest";
import { deliveryDecisionAnswerSchema, runsSchema } from "@/shared/schemas/runs";
import { unique } from "@/test/databases";
import { ADMIN_KEY, callRoute, MARKETER_KEY, sessionRequest, US_STORE, useUpstream } from "@/test/harness";
import { signInEach, type SignedIn } from "@/test/signed-in";
import { activity } from "./activity";
import { decideDelivery } from "./delivery-decisions";
import { createDigest } from "./digests";
import { listRunsAndDeliveries } from "./runs";
import { createSavedView } from "./saved-views";

/** Deliveries left unknown, over the routes the Runs page calls: who may decide, once, and what "Send again" sends. */
const BASE = `/api/stores/${US_STORE}`;
const EU_STORE = "northwind-eu.myshopify.com";
const env = { DELEGATION_KEY: "decision-routes-master-key-".padEnd(48, "k") };
const SERVER_SILENT = "Timeout";

let upstream: DemoUpstream;
let db: Db;
let digestId: string;
let cookies: SignedIn["cookies"];
let emails: SignedIn["emails"];

beforeAll(async () => {
  upstream = await startDemoUpstream({ port: 0 });
  useUpstream(upstream.baseUrl, env);
  db = reachDb(await database(), [US_STORE]);
  ({ cookies, emails } = await signInEach({ admin: ADMIN_KEY, marketer: MARKETER_KEY }, { granting: US_STORE }));
  const view = await callRoute(
    createSavedView,
    sessionRequest("POST", `${BASE}/saved-views`, cookies.admin!, {
      name: unique("View"),
      search: "range=custom&from=2026-01-01&to=2026-01-14",
    }),
  );
  const { id: savedViewId } = (await view.json()) as { id: string };
  const created = await callRoute(
    createDigest,
    sessionRequest("POST", `${BASE}/digests`, cookies.admin!, {
      savedViewId,
      cadence: "daily",
      localTime: "07:00",
      recipients: ["team@example.com"],
    }),
  );
  digestId = digestSchema.parse(await created.json()).id;
});
afterAll(() => upstream.close());
beforeEach(() => useUpstream(upstream.baseUrl, env));
afterEach(() => vi.unstubAllEnvs());

/** A digest message the mail server took but never answered: unknown, as server/delivery/mail.ts records it. */
async function unknownMessage(options: { store?: string; key?: string; purged?: boolean } = {}): Promise<string> {
  const store = options.store ?? US_STORE;
  const key = options.key ?? `digest:${digestId}:${unique("slot")}:team@example.com`;
  await reachDb(await database(), [store]).query(
    `insert into deliveries (key, organization_id, store_url, recipient, subject, html, text_body, headers, channel, outcome, detail)
     values ($1, 'org_northwind', $2, 'team@example.com', 'Daily digest: Northwind US', $3, $4, '{"List-Unsubscribe":"<https://x/u>"}',
       'smtp', 'unknown', $5)`,
    [key, store, options.purged ? "" : "<p>The digest</p>", options.purged ? "" : "The digest", SERVER_SILENT],
  );
  return key;
}

const press = (who: string, key: string, decision: "send_again" | "arrived", idempotencyKey: string = randomUUID()) =>
  callRoute(
    decideDelivery,
    sessionRequest("POST", `${BASE}/deliveries/decisions`, cookies[who]!, { key, decision }, { "idempotency-key": idempotencyKey }),
  );

const runsOf = async (who: string) =>
  runsSchema.parse(await (await callRoute(listRunsAndDeliveries, sessionRequest("GET", "/api/runs", cookies[who]!))).json());

const resendJobs = async (key: string) =>
  (await db.query<{ count: number }>("select count(*)::int as count from jobs where unique_key = $1", [`delivery.resend:${key}#2`]))[0]!
    .count;

describe("the list of deliveries awaiting a decision", () => {
  it("shows each unknown message of the reach with what is known, and who may decide", async () => {
    const key = await unknownMessage();
    const mine = (await runsOf("admin")).awaitingDecision.find((item) => item.key === key);
    expect(mine).toMatchObject({
      storeUrl: US_STORE,
      recipient: "team@example.com",
      subject: "Daily digest: Northwind US",
      sentBy: "digest",
      known: "The mail server did not answer after the message was sent: it may have arrived.",
      detail: SERVER_SILENT,
      ownerEmail: emails.admin,
      mayDecide: true,
      bodyKept: true,
    });
    expect((await runsOf("marketer")).awaitingDecision.find((item) => item.key === key)).toMatchObject({
      ownerEmail: emails.admin,
      mayDecide: false,
    });
  });
});

describe("Send again", () => {
  it("is refused in words to anyone but the owner of the digest's grant, sending nothing", async () => {
    const key = await unknownMessage();
    const refused = await press("marketer", key, "send_again");
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: string }).error).toBe(
      `Only ${emails.admin} may send this message again or mark it as arrived: it went out through their grant.`,
    );
    expect(await resendJobs(key)).toBe(0);
  });

  it("queues the stored message once under a new key; a replay answers the same, another press is a 409", async () => {
    const key = await unknownMessage();
    const idempotencyKey = randomUUID();
    const first = await press("admin", key, "send_again", idempotencyKey);
    expect(first.status).toBe(202);
    const decided = deliveryDecisionAnswerSchema.parse(await first.json());
    expect(decided).toMatchObject({ key, decision: "send_again", decidedBy: emails.admin, resentKey: `${key}#2` });
    const replay = await press("admin", key, "send_again", idempotencyKey);
    expect(replay.status).toBe(202);
    expect(deliveryDecisionAnswerSchema.parse(await replay.json())).toEqual(decided);
    const again = await press("admin", key, "send_again");
    expect(again.status).toBe(409);
    const body = (await again.json()) as { code: string; error: string };
    expect(body.code).toBe("already_decided");
    expect(body.error).toMatch(
      new RegExp(`^${emails.admin!.replace(/[.+]/g, "\\$&")} already sent it again on .+: it is not offered again\\.$`),
    );
    expect(await resendJobs(key)).toBe(1);
    // It leaves the list, and the deliveries list says who decided.
    const runs = await runsOf("admin");
    expect(runs.awaitingDecision.map((item) => item.key)).not.toContain(key);
    expect(runs.deliveries.find((item) => item.key === key)?.decision).toMatchObject({
      kind: "send_again",
      by: emails.admin,
      resentKey: `${key}#2`,
    });
    // Activity names who decided.
    const page = activityResponseSchema.parse(
      await (await callRoute(activity, sessionRequest("GET", "/api/activity", cookies.admin!))).json(),
    );
    const entry = page.entries.find((candidate) => candidate.action === "delivery.send-again" && candidate.target.digestId === digestId);
    expect(entry).toMatchObject({ userEmail: emails.admin, target: { change: "“Daily digest: Northwind US” to team@example.com" } });
  });

  it("sends one message when the same press arrives twice at once, or two presses race", async () => {
    const same = await unknownMessage();
    const idempotencyKey = randomUUID();
    const twice = await Promise.all([
      press("admin", same, "send_again", idempotencyKey),
      press("admin", same, "send_again", idempotencyKey),
    ]);
    expect(twice.map((response) => response.status)).toEqual([202, 202]);
    expect(await resendJobs(same)).toBe(1);
    const raced = await unknownMessage();
    const both = await Promise.all([press("admin", raced, "send_again"), press("admin", raced, "arrived")]);
    const statuses = both.map((response) => response.status).sort();
    // One decision stands (sent again: 202, or arrived: 200); the other press is told it was decided.
    expect([JSON.stringify([200, 409]), JSON.stringify([202, 409])]).toContain(JSON.stringify(statuses));
    expect(await resendJobs(raced)).toBe(statuses[0] === 202 ? 1 : 0);
  });

  it("sends the stored message under the new key by a background run, shown in the deliveries list", async () => {
    const key = await unknownMessage();
    registerResendJob();
    startBackgroundWork({ pollMs: 20 });
    try {
      expect((await press("admin", key, "send_again")).status).toBe(202);
      let sent;
      for (let waited = 0; waited < 15_000 && !sent; waited += 50) {
        [sent] = await db.query<{ outcome: string; html: string; subject: string; headers: Record<string, string> }>(
          "select outcome, html, subject, headers from deliveries where key = $1 and outcome = 'sent'",
          [`${key}#2`],
        );
        if (!sent) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(sent).toEqual({
        outcome: "sent",
        html: "<p>The digest</p>",
        subject: "Daily digest: Northwind US",
        headers: { "List-Unsubscribe": "<https://x/u>" },
      });
      expect((await runsOf("admin")).deliveries.find((item) => item.key === `${key}#2`)?.outcome).toBe("sent");
    } finally {
      await stopBackgroundWork();
    }
  });

  it("says a message whose body the retention purge removed cannot be sent again; it may still be marked as arrived", async () => {
    const key = await unknownMessage({ purged: true });
    expect((await runsOf("admin")).awaitingDecision.find((item) => item.key === key)?.bodyKept).toBe(false);
    const refused = await press("admin", key, "send_again");
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({
      code: "cannot_send_again",
      error: "This message cannot be sent again: its body was removed by the retention purge. Ask the recipient whether it arrived.",
    });
    expect(await resendJobs(key)).toBe(0);
    const arrived = await press("admin", key, "arrived");
    expect(arrived.status).toBe(200);
    expect(deliveryDecisionAnswerSchema.parse(await arrived.json())).toMatchObject({ decision: "arrived", resentKey: null });
    expect((await runsOf("admin")).awaitingDecision.map((item) => item.key)).not.toContain(key);
  });

  it("answers 404 for a message outside the reach or of another store, and refuses a press without its key or from another site", async () => {
    const elsewhere = await unknownMessage({ store: EU_STORE, key: `digest:digest_eu:${unique("slot")}:team@example.com` });
    const outside = await callRoute(
      decideDelivery,
      sessionRequest(
        "POST",
        `/api/stores/${EU_STORE}/deliveries/decisions`,
        cookies.admin!,
        { key: elsewhere, decision: "arrived" },
        { "idempotency-key": randomUUID() },
      ),
    );
    expect(outside.status).toBe(404);
    const otherStore = await press("admin", elsewhere, "arrived");
    expect(otherStore.status).toBe(404);
    expect(((await otherStore.json()) as { error: string }).error).toBe(
      "This store has no message with an unknown outcome under that key.",
    );
    const key = await unknownMessage();
    const noKey = await callRoute(
      decideDelivery,
      sessionRequest("POST", `${BASE}/deliveries/decisions`, cookies.admin!, { key, decision: "arrived" }),
    );
    expect(noKey.status).toBe(400);
    expect(((await noKey.json()) as { error: string }).error).toMatch(/^The Idempotency-Key header is missing/);
    const crossSite = await callRoute(
      decideDelivery,
      sessionRequest(
        "POST",
        `${BASE}/deliveries/decisions`,
        cookies.admin!,
        { key, decision: "arrived" },
        { origin: "https://evil.example", "idempotency-key": randomUUID() },
      ),
    );
    expect(crossSite.status).toBe(403);
    expect((await runsOf("admin")).awaitingDecision.map((item) => item.key)).toContain(key);
  });

  it("lets no one decide about a message whose alert rule was deleted, saying why", async () => {
    const key = await unknownMessage({ key: `alert:note_${randomUUID()}:team@example.com` });
    expect((await runsOf("admin")).awaitingDecision.find((item) => item.key === key)).toMatchObject({
      sentBy: "alert",
      ownerEmail: null,
      mayDecide: false,
    });
    const refused = await press("admin", key, "arrived");
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: string }).error).toBe(
      "Its alert rule was deleted, so no one may send this message again or mark it as arrived.",
    );
  });
});
