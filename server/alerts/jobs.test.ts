import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { startDemoUpstream, type DemoUpstream } from "@/demo-upstream/server";
import { describeDemo } from "@/demo-upstream/describe";
import type { AlertRuleInput } from "@/shared/schemas/alert";
import { createRule, deleteRule, getRule } from "@/server/alerts/rules";
import { database, type Db } from "@/server/db/database";
import { acrossStores, reachDb } from "@/server/db/reach";
import { createView, softDeleteView } from "@/server/saved-views/repository";
import { listNotifications } from "@/server/alerts/notifications";
import { listDeliveries } from "@/server/delivery/ledger";
import { suppress, unsuppressed } from "@/server/delivery/suppressions";
import { unsubscribePage } from "@/server/routes/unsubscribe";
import { startMailSink } from "@/test/mail-sink";
import { createGrant, revokeGrant } from "@/server/grants/store";
import { ANY_SALE, storeRule } from "@/test/alert-rules";
import { unique } from "@/test/databases";
import { ADMIN_KEY, callRoute, US_STORE } from "@/test/harness";
import { enqueue } from "@/server/jobs/queue";
import { startBackgroundWork, stopBackgroundWork } from "@/server/jobs/worker";
import { registerAlertEmailJob } from "./email-job";
import { checkStoreRules, registerAlertJobs } from "./jobs";

/** The background alert check: through the rule author's grant, one notification per episode, one e-mail per address. */
const ORGANIZATION = describeDemo().keys.find((key) => key.key === ADMIN_KEY)!.organizationId!;
const scope = { organizationId: ORGANIZATION, storeUrl: US_STORE };

let upstream: DemoUpstream;
let db: Db;

const alwaysFires = (emails: string[]): AlertRuleInput => storeRule(unique("Any revenue"), ANY_SALE, { emails });

beforeAll(async () => {
  upstream = await startDemoUpstream({ port: 0 });
  vi.stubEnv("UPSTREAM_BASE_URL", upstream.baseUrl);
  vi.stubEnv("DELEGATION_KEY", "alert-jobs-master-key-".padEnd(40, "m"));
  db = reachDb(await database(), [US_STORE]);
  // The e-mails of a notification go through the queue: its worker runs here for them alone.
  registerAlertEmailJob();
  startBackgroundWork({ pollMs: 50 });
});
afterAll(async () => {
  await stopBackgroundWork();
  vi.unstubAllEnvs();
  await upstream.close();
});
beforeEach(async () => {
  for (const { id } of await db.query<{ id: string }>("select id from alert_rules where deleted_at is null"))
    await deleteRule(db, scope, id, new Date());
});

const grantFor = (ownerEmail: string, keyFingerprint = unique("fp")) =>
  createGrant(db, { ...scope, keyFingerprint, ownerEmail, apiKey: ADMIN_KEY, ttlDays: 90 }, new Date());

describe("alert checks while nobody is signed in", () => {
  it("read through the author's grant, notify once per episode and e-mail each address once", async () => {
    const author = `${unique("author")}@example.com`;
    await grantFor(author);
    const rule = await createRule(db, scope, alwaysFires(["ops@example.com", "cfo@example.com"]), author, new Date());

    expect((await checkStoreRules(scope)).detail).toMatch(/^1 rules checked: 1 fired/);
    await checkStoreRules(scope);

    const notifications = (await listNotifications(db, [US_STORE], author)).filter((n) => n.ruleId === rule.id);
    expect(notifications).toHaveLength(1);
    const mailsOf = async () =>
      (await listDeliveries(db, [US_STORE], { channel: "outbox" })).filter((d) => d.key.startsWith(`alert:${notifications[0]!.id}:`));
    // Queued with the episode in one transaction, sent by the queue's worker.
    const [job] = await db.query<{ state: string }>("select state from jobs where unique_key = $1", [
      `alerts.email:${notifications[0]!.id}`,
    ]);
    expect(job).toBeDefined();
    await vi.waitFor(async () => expect(await mailsOf()).toHaveLength(2), { timeout: 10_000 });
    const mails = await mailsOf();
    expect(mails.map((mail) => mail.recipient).sort()).toEqual(["cfo@example.com", "ops@example.com"]);
    expect(mails.every((mail) => mail.subject === notifications[0]!.title && mail.outcome === "sent")).toBe(true);
  });

  it("skip an address that unsubscribed from the store's mail", async () => {
    const author = `${unique("author")}@example.com`;
    await grantFor(author);
    const gone = `${unique("gone")}@example.com`;
    await suppress(db, scope, gone, new Date());
    const rule = await createRule(db, scope, alwaysFires([gone, "ops@example.com"]), author, new Date());
    await checkStoreRules(scope);
    const [notification] = (await listNotifications(db, [US_STORE], author)).filter((n) => n.ruleId === rule.id);
    await vi.waitFor(
      async () => {
        const [job] = await db.query<{ state: string; detail: string }>("select state, detail from jobs where unique_key = $1", [
          `alerts.email:${notification!.id}`,
        ]);
        expect(job).toEqual({ state: "done", detail: "1 sent, 0 not sent, 0 unknown (not sent again)" });
      },
      { timeout: 10_000 },
    );
    const mails = (await listDeliveries(db, [US_STORE], { channel: "outbox" })).filter((d) =>
      d.key.startsWith(`alert:${notification!.id}:`),
    );
    expect(mails.map((mail) => mail.recipient)).toEqual(["ops@example.com"]);
  });

  it("e-mail with an unsubscribe link and List-Unsubscribe header, whose one-click POST stops the store's mail to that address", async () => {
    const sink = await startMailSink();
    try {
      vi.stubEnv("SMTP_URL", sink.url);
      const author = `${unique("author")}@example.com`;
      await grantFor(author);
      const reader = `${unique("reader")}@example.com`;
      await createRule(db, scope, alwaysFires([reader]), author, new Date());
      await checkStoreRules(scope);
      const [message] = await sink.waitFor(1);
      const header = (name: string) => message!.headerLines.find((line) => line.key === name)?.line.replace(/\r\n\s+/g, " ") ?? "";
      const link = /^List-Unsubscribe: <(http:\/\/[^>]+\/api\/unsubscribe\/([\w-]{32}))>$/.exec(header("list-unsubscribe"));
      expect(link).not.toBeNull();
      expect(header("list-unsubscribe-post")).toBe("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
      expect(message!.text).toContain(link![1]);
      const token = link![2]!;
      const call = (method: string, body?: string, origin = "https://mail.example") =>
        callRoute(
          unsubscribePage,
          new Request(`http://localhost:3000/api/unsubscribe/${token}`, {
            method,
            body,
            headers: { "content-type": "application/x-www-form-urlencoded", origin },
          }),
        );
      // A scanner's GET changes nothing; the one-click POST suppresses the address for the store.
      expect(await (await call("GET")).text()).toContain(">Unsubscribe</button>");
      expect(await unsuppressed(db, scope, [reader])).toEqual([reader]);
      expect((await call("POST", "List-Unsubscribe=One-Click")).status).toBe(200);
      expect(await unsuppressed(db, scope, [reader])).toEqual([]);
      // Subscribing again is the address's own: never a bare POST, only the page's button with the proof it carries.
      const bare = await call("POST", "action=subscribe");
      expect(bare.status).toBe(403);
      expect(await unsuppressed(db, scope, [reader])).toEqual([]);
      const proof = /name="proof" value="([^"]+)"/.exec(await (await call("GET")).text())![1]!;
      expect((await call("POST", `action=subscribe&proof=${encodeURIComponent(proof)}`)).status).toBe(403);
      const again = await call("POST", `action=subscribe&proof=${encodeURIComponent(proof)}`, "http://localhost:3000");
      expect(await again.text()).toContain("You are subscribed again");
      expect(await unsuppressed(db, scope, [reader])).toEqual([reader]);
    } finally {
      vi.stubEnv("SMTP_URL", undefined);
      await sink.close();
    }
  });

  it("judge a daily rule's day once, however often they run", async () => {
    const author = `${unique("author")}@example.com`;
    await grantFor(author);
    const rule = await createRule(db, scope, alwaysFires([]), author, new Date());
    expect((await checkStoreRules(scope)).detail).toMatch(/^1 rules checked: 1 fired/);
    const reads = upstream.requestCounts().products;
    expect((await checkStoreRules(scope)).detail).toBe(
      "0 rules checked: 0 fired, 0 resolved, 0 failed; 0 without a grant in force; 1 already judged for their last complete period",
    );
    expect(upstream.requestCounts().products).toBe(reads);
    const [stored] = await db.query<{ period: string }>("select last_judged_period as period from alert_rules where id = $1", [rule.id]);
    expect(stored!.period).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // A new day (here: the period judged last is an earlier one) is judged again.
    await db.query("update alert_rules set last_judged_period = '2000-01-01' where id = $1", [rule.id]);
    expect((await checkStoreRules(scope)).detail).toMatch(/^1 rules checked: 0 fired/);
  });

  it("do not judge a rule whose saved view was deleted, rather than read the whole store", async () => {
    const author = `${unique("author")}@example.com`;
    await grantFor(author);
    const view = await createView(
      db,
      { ...scope, name: unique("Facebook only"), view: { search: "channels=facebook" }, createdByEmail: author },
      new Date(),
    );
    const rule = await createRule(db, scope, { ...alwaysFires([]), savedViewId: view.id }, author, new Date());
    expect(rule.deletedViewName).toBeNull();
    await softDeleteView(db, ORGANIZATION, US_STORE, view.id, new Date());
    // The rule says why it is paused, naming the view (the rule page and the alerts list show it).
    expect((await getRule(db, scope, rule.id))!.deletedViewName).toBe(view.name);
    expect((await checkStoreRules(scope)).detail).toMatch(/^0 rules checked: 0 fired, 0 resolved, 1 failed/);
    await db.query("update alert_rules set last_judged_period = null where id = $1", [rule.id]);
    await checkStoreRules(scope);
    // The inbox says so once, naming the view; nothing fired.
    const notices = (await listNotifications(db, [US_STORE], author)).filter((n) => n.ruleId === rule.id);
    expect(notices.map((n) => n.kind)).toEqual(["rule_paused"]);
    expect(notices[0]!.title).toContain(`its saved view “${view.name}” was deleted`);
  });

  it("run as one job per store, each under its store's organization and reach, queued by the scheduled planner", async () => {
    const kumo = { organizationId: "org_kumo", storeUrl: "kumo-living-au.myshopify.com" };
    const kumoDb = reachDb(await database(), [kumo.storeUrl]);
    const author = `${unique("author")}@example.com`;
    await createRule(db, scope, alwaysFires([]), author, new Date());
    await createRule(kumoDb, kumo, alwaysFires([]), author, new Date());
    registerAlertJobs();
    const { id: plan } = await enqueue("alerts.check", {});
    // The jobs of both stores: read across stores (the queue is under row-level security).
    const checks = async () =>
      acrossStores(db, "a test of the alert planner", (tx) =>
        tx.query<{ storeUrl: string; tenant: string; state: string; detail: string | null }>(
          `select store_url as "storeUrl", tenant, state, detail from jobs where name = 'alerts.check-store' and unique_key like $1 order by store_url`,
          [`%:${plan}`],
        ),
      );
    await vi.waitFor(async () => expect((await checks()).map((check) => check.state)).toEqual(["done", "done"]), { timeout: 10_000 });
    expect(await checks()).toEqual([
      {
        storeUrl: kumo.storeUrl,
        tenant: "organization:org_kumo",
        state: "done",
        detail: "0 rules checked: 0 fired, 0 resolved, 0 failed; 1 without a grant in force",
      },
      {
        storeUrl: US_STORE,
        tenant: `organization:${ORGANIZATION}`,
        state: "done",
        detail: expect.stringMatching(/; 1 without a grant in force$/),
      },
    ]);
    const [planner] = await db.query<{ tenant: string; detail: string }>("select tenant, detail from jobs where id = $1", [plan]);
    expect(planner).toEqual({ tenant: "dashboard", detail: "2 stores to check" });
    await deleteRule(
      kumoDb,
      kumo,
      (await kumoDb.query<{ id: string }>("select id from alert_rules where deleted_at is null"))[0]!.id,
      new Date(),
    );
  });

  it("wait for a grant: a rule whose author granted nothing, or revoked it, is not checked", async () => {
    const author = `${unique("author")}@example.com`;
    const rule = await createRule(db, scope, alwaysFires([]), author, new Date());
    expect((await checkStoreRules(scope)).detail).toBe("0 rules checked: 0 fired, 0 resolved, 0 failed; 1 without a grant in force");

    const keyFingerprint = unique("fp");
    const grant = await grantFor(author, keyFingerprint);
    await revokeGrant(db, { ...scope, keyFingerprint }, grant.id, new Date());
    expect((await checkStoreRules(scope)).detail).toMatch(/; 1 without a grant in force$/);
    expect((await listNotifications(db, [US_STORE], author)).filter((n) => n.ruleId === rule.id)).toEqual([]);
  });
});
