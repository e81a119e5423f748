import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DemoUpstream } from "@/demo-upstream/server";
import { describeDemo } from "@/demo-upstream/describe";
import { database, type Db } from "@/server/db/database";
import { softDeleteView } from "@/server/saved-views/repository";
import { revokeGrant, noticesOfKey } from "@/server/grants/store";
import { enqueue } from "@/server/jobs/queue";
import { formatCurrency, formatNumber } from "@/shared/format";
import { dumpAllTables, unique } from "@/test/databases";
import { startDigestSending, type DigestSending } from "@/test/digest-sending";
import type { MailSink } from "@/test/mail-sink";
import { createUsGrant, createUsView } from "@/test/us-store";
import { enqueueDigest } from "./jobs";
import { unsubscribePage } from "@/server/routes/unsubscribe";
import { ADMIN_KEY, callRoute, US_STORE } from "@/test/harness";
import { createSchedule, setSubscribed } from "./store";
import { acrossStores, reachDb } from "@/server/db/reach";

const MASTER_OLD = "old-master-key-".padEnd(40, "o");
const MASTER_NEW = "new-master-key-".padEnd(40, "n");
const MANAGER_KEY = "sk_demo_manager_nw_us_7c2e5a90f3b1";
const ORGANIZATION = describeDemo().keys.find((key) => key.key === ADMIN_KEY)!.organizationId!;
const SEARCH = "range=custom&from=2026-01-01&to=2026-01-31&compare=previous";

let sending: DigestSending;
let upstream: DemoUpstream;
let sink: MailSink;
let db: Db;

const settingsFor = (delegationKey: string) => vi.stubEnv("DELEGATION_KEY", delegationKey);

beforeAll(async () => {
  sending = await startDigestSending({ DELEGATION_KEY: MASTER_OLD, JOBS_LEASE_SECONDS: "5" });
  ({ upstream, sink } = sending);
  db = reachDb(await database(), [US_STORE]);
});
afterAll(() => sending.stop());

async function finished(jobId: string): Promise<{ state: string; detail: string | null }> {
  for (let waited = 0; waited < 30_000; waited += 50) {
    const [job] = await db.query<{ state: string; detail: string | null }>("select state, detail from jobs where id = $1", [jobId]);
    if (job && (job.state === "done" || job.state === "dead")) return job;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`job ${jobId} did not finish`);
}

async function scheduleFor(apiKey: string, recipients: string[]) {
  const view = await createUsView(db, "January", SEARCH, "ada@example.com");
  const grant = await createUsGrant(db, "owner@example.com", apiKey);
  const schedule = await createSchedule(
    db,
    {
      organizationId: ORGANIZATION,
      storeUrl: US_STORE,
      savedViewId: view.id,
      grantId: grant.id,
      cadence: "daily",
      localTime: "08:00",
      timeZone: "America/New_York",
      recipients,
      createdByEmail: "ada@example.com",
    },
    new Date(),
  );
  return { view, grant, schedule: schedule! };
}

async function rawTotals(startDate: string, endDate: string) {
  const response = await fetch(`${upstream.baseUrl}/ad-metrics/${US_STORE}/products?startDate=${startDate}&endDate=${endDate}`, {
    headers: { "x-api-key": ADMIN_KEY },
  });
  const rows = (await response.json()) as { revenue: number; orders: number }[];
  return {
    revenue: Math.round(rows.reduce((sum, row) => sum + row.revenue, 0) * 100) / 100,
    orders: rows.reduce((sum, row) => sum + row.orders, 0),
  };
}

describe("digests of saved views", () => {
  it("arrives by SMTP with the sums of the upstream's raw rows, a link to the view and a one-click unsubscribe", async () => {
    const { schedule } = await scheduleFor(ADMIN_KEY, ["Bea@Example.com", "cy@example.com"]);
    const { id } = await enqueueDigest(schedule, "test-slot-1", db);
    expect(await finished(id)).toMatchObject({ state: "done", detail: expect.stringContaining("2 sent") });
    const messages = await sink.waitFor(2);
    const message = messages.find((candidate) => JSON.stringify(candidate.to).includes("bea@example.com"))!;
    const current = await rawTotals("2026-01-01", "2026-01-31");
    const previous = await rawTotals("2025-12-01", "2025-12-31");
    expect(message.text).toContain(`Revenue: ${formatCurrency(current.revenue, "USD")} (was ${formatCurrency(previous.revenue, "USD")}`);
    expect(message.text).toContain(`Orders: ${formatNumber(current.orders)} (was ${formatNumber(previous.orders)}`);
    expect(message.html).toContain("<table");
    // What the view shows, in words: no filter, the conversion's credit, January in the store's zone against December.
    expect(message.text).toContain("Shows: All orders (no filter) · credit to the conversion");
    expect(message.text).toContain(
      "Custom range: Jan 1, 2026 – Jan 31, 2026 (America/New_York), compared with the period just before: Dec 1, 2025 – Dec 31, 2025.",
    );
    expect(message.html).toContain("All orders (no filter) · credit to the conversion");
    const link = /Open this view: (\S+)/.exec(message.text!)![1]!;
    const url = new URL(link);
    expect(url.pathname).toBe(`/stores/${US_STORE}/products`);
    expect(new URLSearchParams(url.search).get("from")).toBe("2026-01-01");
    expect(url.searchParams.get("organizationId")).toBe(ORGANIZATION);
    const header = (name: string) => message.headerLines.find((line) => line.key === name)?.line.replace(/\r\n\s+/g, " ") ?? "";
    expect(header("list-unsubscribe")).toMatch(/^List-Unsubscribe: <http:\/\/localhost:\d+\/api\/unsubscribe\/[\w-]+>$/);
    expect(header("list-unsubscribe-post")).toBe("List-Unsubscribe-Post: List-Unsubscribe=One-Click");

    // The same slot again sends nothing: each recipient's delivery has its key.
    const again = await enqueueDigest(schedule, "test-slot-1", db);
    expect(again.created).toBe(false);
    const [token] = await db.query<{ token: string }>(
      "select unsubscribe_token as token from digest_recipients where schedule_id = $1 and email = 'cy@example.com'",
      [schedule.id],
    );
    expect(await setSubscribed(db, token!.token, false, new Date())).toMatchObject({ email: "cy@example.com", unsubscribed: true });
    const next = await enqueueDigest(schedule, "test-slot-2", db);
    expect(await finished(next.id)).toMatchObject({ state: "done", detail: expect.stringContaining("1 sent") });
  });

  it("unsubscribes only on a POST, and keeps the address suppressed for the store until it subscribes again by its link", async () => {
    const address = `${unique("dee")}@example.com`;
    const first = await scheduleFor(ADMIN_KEY, [address]);
    const [row] = await db.query<{ token: string }>("select unsubscribe_token as token from digest_recipients where schedule_id = $1", [
      first.schedule.id,
    ]);
    const link = `http://localhost:3000/api/unsubscribe/${row!.token}`;
    const call = (method: string, body?: string, origin = "https://mail.example") =>
      callRoute(
        unsubscribePage,
        new Request(link, {
          method,
          body,
          // A mail provider's one-click POST comes from its own servers, with no origin of ours.
          headers: { "content-type": "application/x-www-form-urlencoded", origin },
        }),
      );
    const delivered = () => sink.messages.filter((message) => JSON.stringify(message.to).includes(address)).length;

    // A link scanner probing or opening the link changes nothing.
    expect((await call("HEAD")).status).toBe(200);
    const shown = await call("GET");
    expect(await shown.text()).toContain(">Unsubscribe</button>");
    const run = await enqueueDigest(first.schedule, "after-scanner", db);
    expect(await finished(run.id)).toMatchObject({ state: "done", detail: expect.stringContaining("1 sent") });
    expect(delivered()).toBe(1);

    // RFC 8058's one-click POST unsubscribes; the page then offers to subscribe again, its button bound to that page.
    const unsubscribed = await call("POST", "List-Unsubscribe=One-Click");
    const page = await unsubscribed.text();
    expect(page).toContain(">Subscribe again</button>");
    const proof = /name="proof" value="([^"]+)"/.exec(page)![1]!;

    // Added again by a colleague, to another digest of the store: still nothing reaches the address.
    const second = await scheduleFor(ADMIN_KEY, [address, `${unique("eve")}@example.com`]);
    expect(second.schedule.recipients.find((recipient) => recipient.email === address)).toEqual({ email: address, unsubscribed: true });
    const skipped = await enqueueDigest(second.schedule, "suppressed", db);
    expect(await finished(skipped.id)).toMatchObject({ state: "done", detail: expect.stringContaining("1 sent") });
    const none = await enqueueDigest(first.schedule, "suppressed", db);
    expect(await finished(none.id)).toMatchObject({ detail: "Not sent: every recipient unsubscribed." });
    expect(delivered()).toBe(1);

    // Only the address itself, by its link's button, opts in again: a bare cross-site POST is refused.
    expect((await call("POST", "action=subscribe")).status).toBe(403);
    const again = await call("POST", `action=subscribe&proof=${encodeURIComponent(proof)}`, "http://localhost:3000");
    expect(await again.text()).toContain("You are subscribed again");
    const resumed = await enqueueDigest(second.schedule, "resumed", db);
    expect(await finished(resumed.id)).toMatchObject({ state: "done", detail: expect.stringContaining("2 sent") });
    await vi.waitFor(() => expect(delivered()).toBe(2), { timeout: 5_000 });
  });

  it("stops at once when its saved view is deleted, and says so", async () => {
    const address = `${unique("view-gone")}@example.com`;
    const { schedule, view } = await scheduleFor(ADMIN_KEY, [address]);
    await softDeleteView(db, ORGANIZATION, US_STORE, view.id, new Date());
    const run = await enqueueDigest(schedule, "view-deleted", db);
    expect(await finished(run.id)).toMatchObject({
      state: "done",
      detail: `Not sent: its saved view “${view.name}” was deleted. Restore the view, or schedule another one.`,
    });
    expect(sink.messages.some((message) => JSON.stringify(message.to).includes(address))).toBe(false);
  });

  it("is planned across stores, then sent in its own store's reach", async () => {
    const { schedule } = await scheduleFor(ADMIN_KEY, ["planned@example.com"]);
    await db.query("update digest_schedules set next_run_at = now() - interval '1 minute' where id = $1", [schedule.id]);
    const plan = await enqueue("digest.plan", {}, { uniqueKey: unique("plan"), maxAttempts: 1 });
    expect(await finished(plan.id)).toMatchObject({ state: "done", detail: expect.stringMatching(/^[1-9]\d* digests? due$/) });
    const [send] = await db.query<{ id: string; storeUrl: string }>(
      `select id::text as id, store_url as "storeUrl" from jobs where name = 'digest.send' and payload->>'scheduleId' = $1`,
      [schedule.id],
    );
    expect(send?.storeUrl).toBe(US_STORE);
    expect(await finished(send!.id)).toMatchObject({ state: "done", detail: expect.stringContaining("1 sent") });
  });

  it("holds no API key in plain text in any table, and reads under an old master key after a rotation", async () => {
    const { schedule, grant } = await scheduleFor(ADMIN_KEY, ["rotation@example.com"]);
    expect(await acrossStores(db, "every row of every store", dumpAllTables)).not.toContain(ADMIN_KEY);
    settingsFor(`${MASTER_NEW},${MASTER_OLD}`);
    const before = sink.messages.length;
    const run = await enqueueDigest(schedule, "after-rotation", db);
    expect(await finished(run.id)).toMatchObject({ state: "done" });
    await sink.waitFor(before + 1);
    // Used once under the new list, the grant was sealed again under the newest key: the old one can go.
    settingsFor(MASTER_NEW);
    const later = await enqueueDigest(schedule, "old-key-removed", db);
    expect(await finished(later.id)).toMatchObject({ state: "done" });
    expect(await acrossStores(db, "every row of every store", dumpAllTables)).not.toContain(ADMIN_KEY);
    expect(grant.id).toMatch(/^grant_/);
  });

  it("fails as a configuration problem, and keeps its grant, while DELEGATION_KEY lacks the grant's master key", async () => {
    settingsFor(MASTER_OLD);
    const { schedule, grant } = await scheduleFor(ADMIN_KEY, ["kept@example.com"]);
    settingsFor(MASTER_NEW);
    const run = await enqueueDigest(schedule, "key-missing", db);
    expect(await finished(run.id)).toMatchObject({ state: "dead", detail: expect.stringMatching(/^A configuration problem: /) });
    const [row] = await db.query<{ ended: Date | null }>("select ended_at as ended from grants where id = $1", [grant.id]);
    expect(row).toEqual({ ended: null });
    settingsFor(`${MASTER_NEW},${MASTER_OLD}`);
    const again = await enqueueDigest(schedule, "key-back", db);
    expect(await finished(again.id)).toMatchObject({ state: "done", detail: expect.stringContaining("1 sent") });
  });

  it("stops at the next run once the grant is revoked", async () => {
    const { schedule, grant } = await scheduleFor(ADMIN_KEY, ["revoked@example.com"]);
    const fingerprint = (await db.query<{ fp: string }>("select key_fingerprint as fp from grants where id = $1", [grant.id]))[0]!.fp;
    expect(
      await revokeGrant(db, { organizationId: ORGANIZATION, storeUrl: US_STORE, keyFingerprint: fingerprint }, grant.id, new Date()),
    ).toBe("revoked");
    const before = sink.messages.length;
    const run = await enqueueDigest(schedule, "after-revocation", db);
    expect(await finished(run.id)).toMatchObject({ state: "dead", detail: expect.stringContaining("revoked") });
    expect(sink.messages.length).toBe(before);
  });

  it("ends the grant on an upstream 401, tells its owner, and sends nothing", async () => {
    const { schedule, grant } = await scheduleFor(MANAGER_KEY, ["refused@example.com"]);
    await fetch(`${upstream.origin}/__control/revoke`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ key: MANAGER_KEY }),
    });
    const run = await enqueueDigest(schedule, "after-401", db);
    expect(await finished(run.id)).toMatchObject({ state: "dead", detail: expect.stringContaining("refused") });
    expect(sink.messages.some((message) => JSON.stringify(message.to).includes("refused@example.com"))).toBe(false);
    const [row] = await db.query<{ reason: string; fp: string }>(
      "select ended_reason as reason, key_fingerprint as fp from grants where id = $1",
      [grant.id],
    );
    expect(row!.reason).toBe("upstream_refused");
    await vi.waitFor(async () => expect((await noticesOfKey(db, row!.fp)).map((notice) => notice.kind)).toEqual(["grant_ended"]), {
      timeout: 5_000,
    });
    await vi.waitFor(() => expect(sink.messages.some((message) => message.subject?.startsWith("Access for digests"))).toBe(true), {
      timeout: 5_000,
    });
    upstream.reset();
  });
});
