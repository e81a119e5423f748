import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DemoUpstream } from "@/demo-upstream/server";
import { describeDemo } from "@/demo-upstream/describe";
import { database, type Db } from "@/server/db/database";
import { acrossStores, inReach, reachDb } from "@/server/db/reach";
import { queueDb } from "@/server/jobs/queue";
import { productMetricsView } from "@/server/metrics/service";
import { upstreamClient } from "@/server/upstream/client";
import { formatCurrency } from "@/shared/format";
import { unique } from "@/test/databases";
import { startDigestSending, type DigestSending } from "@/test/digest-sending";
import type { MailSink } from "@/test/mail-sink";
import { ADMIN_KEY, US_STORE } from "@/test/harness";
import { createUsGrant, createUsView } from "@/test/us-store";
import { enqueueDigest } from "./jobs";
import { restatedDays } from "./restated";
import { createSchedule, lastSendOf, recordSend } from "./store";

const ORGANIZATION = describeDemo().keys.find((key) => key.key === ADMIN_KEY)!.organizationId!;

let db: Db;

async function restatement(
  day: string,
  detectedAt: string,
  revenue: [number, number],
  channels: { key: string; change: number }[],
  source = "conversion",
) {
  await db.query(
    `insert into rollup_restatements (id, store_url, source, day, detected_at, currency, revenue_before, revenue_after,
       orders_before, orders_after, units_before, units_after, channels, products)
     values ($1, $2, $3, $4, $5, 'USD', $6, $7, 10, 10, 12, 12, $8, '[]')`,
    [unique("restated"), US_STORE, source, day, new Date(detectedAt), revenue[0], revenue[1], JSON.stringify(channels)],
  );
}

/** A daily 08:00 digest of the US store's view through the grant, to one address. */
const dailyAtEight = async (
  db: Db,
  of: { savedViewId: string; grantId: string },
  to: { timeZone: string; recipient: string; by: string },
  createdAt: Date,
) =>
  (await createSchedule(
    db,
    {
      organizationId: ORGANIZATION,
      storeUrl: US_STORE,
      ...of,
      cadence: "daily",
      localTime: "08:00",
      timeZone: to.timeZone,
      recipients: [to.recipient],
      createdByEmail: to.by,
    },
    createdAt,
  ))!;

describe("the days a digest names as restated", () => {
  beforeAll(async () => {
    db = reachDb(await database(), [US_STORE]);
  });

  it("keeps the days of its ranges restated after its previous send, for its attribution, one line per day", async () => {
    await restatement("2026-03-03", "2026-04-01T10:00:00Z", [100, 120], [{ key: "facebook", change: 20 }]);
    // Restated twice since: first figures then, latest now; the channels' moves added up.
    await restatement("2026-03-04", "2026-04-02T10:00:00Z", [200, 150], [{ key: "google", change: -50 }]);
    await restatement("2026-03-04", "2026-04-03T10:00:00Z", [150, 260], [{ key: "facebook", change: 110 }]);
    // Before the previous send, another attribution, outside both ranges, after the lookup.
    await restatement("2026-03-05", "2026-03-20T10:00:00Z", [1, 2], []);
    await restatement("2026-03-06", "2026-04-02T10:00:00Z", [1, 2], [], "first_touch");
    await restatement("2026-05-01", "2026-04-02T10:00:00Z", [1, 2], []);
    await restatement("2026-02-25", "2026-04-05T10:00:00Z", [1, 2], []);

    const ranges = [
      { startDate: "2026-03-02", endDate: "2026-03-08" },
      { startDate: "2026-02-23", endDate: "2026-03-01" },
    ];
    const days = await restatedDays(db, US_STORE, "conversion", ranges, new Date("2026-03-31T00:00:00Z"), new Date("2026-04-04T00:00:00Z"));
    expect(days).toEqual([
      { day: "2026-03-03", currency: "USD", revenue: { before: 100, after: 120 }, orders: { before: 10, after: 10 }, mostly: "facebook" },
      { day: "2026-03-04", currency: "USD", revenue: { before: 200, after: 260 }, orders: { before: 10, after: 10 }, mostly: "facebook" },
    ]);
    // The comparison range counts too.
    const later = await restatedDays(
      db,
      US_STORE,
      "conversion",
      ranges,
      new Date("2026-04-04T00:00:00Z"),
      new Date("2026-04-06T00:00:00Z"),
    );
    expect(later.map((day) => day.day)).toEqual(["2026-02-25"]);
  });
});

describe("a digest over the real path, with the day rollups on", () => {
  let sending: DigestSending;
  let upstream: DemoUpstream;
  let sink: MailSink;

  beforeAll(async () => {
    sending = await startDigestSending({
      DELEGATION_KEY: "master-key-".padEnd(40, "m"),
      JOBS_LEASE_SECONDS: "5",
      ROLLUPS: "on",
      ROLLUP_REVALIDATE_SECONDS: "1",
    });
    ({ upstream, sink } = sending);
    db = reachDb(await database(), [US_STORE]);
  });
  afterAll(() => sending.stop());

  async function sent(schedule: { id: string; organizationId: string; storeUrl: string }, slot: string, address: string) {
    const before = sink.messages.length;
    const { id } = await enqueueDigest(schedule, slot, db);
    for (let waited = 0; waited < 30_000; waited += 50) {
      const [job] = await db.query<{ state: string; detail: string }>("select state, detail from jobs where id = $1", [id]);
      if (job?.state === "dead") throw new Error(job.detail);
      if (job?.state === "done") break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await sink.waitFor(before + 1);
    return sink.messages.filter((message) => JSON.stringify(message.to).includes(address)).at(-1)!;
  }

  async function fillsDone() {
    for (let waited = 0; waited < 30_000; waited += 50) {
      const [row] = await (
        await queueDb()
      ).query<{ n: number }>("select count(*)::int as n from jobs where name = 'rollups.fill' and state in ('queued', 'running')");
      if (row!.n === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error("the rollup fills did not finish");
  }

  async function dayRevenue(date: string) {
    const response = await fetch(`${upstream.baseUrl}/ad-metrics/${US_STORE}/products?startDate=${date}&endDate=${date}`, {
      headers: { "x-api-key": ADMIN_KEY },
    });
    const rows = (await response.json()) as { revenue: number }[];
    return Math.round(rows.reduce((sum, row) => sum + row.revenue, 0) * 100) / 100;
  }

  it("names a day restated since the last digest once, links to Data changes, and not again in the next digest", async () => {
    const address = `${unique("restated")}@example.com`;
    const view = await createUsView(db, "March week", "range=custom&from=2026-03-02&to=2026-03-08&compare=previous", "ada@example.com");
    const grant = await createUsGrant(db, "ada@example.com");
    const schedule = await dailyAtEight(
      db,
      { savedViewId: view.id, grantId: grant.id },
      { timeZone: "America/New_York", recipient: address, by: "ada@example.com" },
      new Date(),
    );

    // The first digest reads both weeks through the rollups, which then hold them.
    const first = await sent(schedule, "slot-1", address);
    expect(first.text).not.toContain("restated");
    // The fills its reads queued store the weeks behind it (the queue's worker).
    await fillsDone();
    const was = await dayRevenue("2026-03-04");

    // The upstream restates a day, over its control API; once the held day is stale, a view reading it finds the change.
    const restate = await fetch(`${upstream.origin}/__control/restate`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ storeUrl: US_STORE, date: "2026-03-04", factor: 1.5 }),
    });
    expect(restate.status).toBeLessThan(300);
    const now = await dayRevenue("2026-03-04");
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const client = upstreamClient({ apiKey: ADMIN_KEY, requestId: "req_restated_view", readOnly: true });
    await inReach(
      [US_STORE],
      () => productMetricsView(client, US_STORE, { startDate: "2026-03-02", endDate: "2026-03-08" }, undefined).view,
    );
    // The view reads the stale days upstream and queues their fill, which records the restatement.
    await fillsDone();

    const second = await sent(schedule, "slot-2", address);
    const line = `Mar 4, 2026 was restated since the last digest: revenue ${formatCurrency(now - was, "USD", true)} (was ${formatCurrency(was, "USD")}), mostly `;
    expect(second.text!.split("was restated")).toHaveLength(2);
    expect(second.text).toContain(`- ${line}`);
    expect(second.text).toMatch(
      new RegExp(`What changed: http://localhost:\\d+/stores/${US_STORE.replaceAll(".", "\\.")}/data-changes\\?organizationId=`),
    );
    expect(String(second.html).split("was restated")).toHaveLength(2);
    expect(second.html).toContain('<h2 style="font-size:16px">Restated days</h2>');
    expect(second.html).toMatch(/href="http:\/\/localhost:\d+\/stores\/[^"]+\/data-changes\?organizationId=[^"]+"/);

    // The next digest says nothing of it: it was named in the last one.
    const third = await sent(schedule, "slot-3", address);
    expect(third.text).not.toContain("restated");
    expect(third.html).not.toContain("Restated");
    const [row] = await acrossStores(db, "a test of what the schedule recorded", (tx) =>
      tx.query<{ slot: string }>("select last_slot as slot from digest_schedules where id = $1", [schedule.id]),
    );
    expect(row!.slot).toBe("slot-3");
  }, 60_000);

  it("looks back from the previous slot, and on a retry of a slot as far as its first attempt did", async () => {
    const view = await createUsView(db, "v", "", "a@example.com");
    const grant = await createUsGrant(db, "a@example.com");
    const created = new Date("2026-01-01T00:00:00Z");
    const schedule = await dailyAtEight(
      db,
      { savedViewId: view.id, grantId: grant.id },
      { timeZone: "UTC", recipient: "b@example.com", by: "a@example.com" },
      created,
    );
    expect(await lastSendOf(db, schedule.id, "a")).toEqual({ at: created, lastDigest: false });
    const a = new Date("2026-01-02T08:00:05Z");
    await recordSend(db, schedule.id, "a", a);
    expect(await lastSendOf(db, schedule.id, "b")).toEqual({ at: a, lastDigest: true });
    // "a" again (a retry): still from the schedule's creation.
    expect(await lastSendOf(db, schedule.id, "a")).toEqual({ at: created, lastDigest: false });
    const b = new Date("2026-01-03T08:00:05Z");
    await recordSend(db, schedule.id, "b", b);
    await recordSend(db, schedule.id, "b", new Date("2026-01-03T08:05:00Z"));
    expect(await lastSendOf(db, schedule.id, "b")).toEqual({ at: a, lastDigest: true });
    expect(await lastSendOf(db, schedule.id, "c")).toEqual({ at: new Date("2026-01-03T08:05:00Z"), lastDigest: true });
  });
});
