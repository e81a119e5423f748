import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDemoUpstream, type DemoUpstream } from "@/demo-upstream/server";
import { Dashboard } from "@/test/dashboard-instances";
import { newLocation } from "@/test/databases";
import { ADMIN_KEY, US_STORE } from "@/test/harness";
import { startMailSink, type MailSink } from "@/test/mail-sink";
import { ensureBuild } from "@/test/processes";

/**
 * Digests from two production dashboard processes on one PostgreSQL database, through a real
 * SMTP server: every scheduled slot is delivered once, and an instance killed (-9) while the
 * SMTP server holds its message does not lead to a second copy.
 */
const postgresUrl = process.env.TEST_DATABASE_URL;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const SCHEDULES = 12;

describe.skipIf(!postgresUrl)("digests from two dashboard instances on one PostgreSQL database", () => {
  let upstream: DemoUpstream;
  let sink: MailSink;
  let a: Dashboard;
  let b: Dashboard;
  let db: pg.Client;
  let drop: () => Promise<void>;
  let cookie: string;

  beforeAll(async () => {
    ensureBuild();
    upstream = await startDemoUpstream({ port: 0 });
    sink = await startMailSink();
    const location = await newLocation("postgres");
    drop = location.drop;
    const env = {
      UPSTREAM_BASE_URL: upstream.baseUrl,
      SESSION_SECRET: "digest-instances-secret-".padEnd(48, "x"),
      DELEGATION_KEY: "digest-instances-master-key-".padEnd(48, "k"),
      DATABASE_URL: location.url!,
      SMTP_URL: sink.url,
      // E-mail in production links to the dashboard's public origin.
      APP_ORIGIN: "https://dashboard.example.com",
      JOBS_LEASE_SECONDS: "5",
      TRUST_PROXY_HOPS: "1",
    };
    a = await Dashboard.create(env);
    b = await Dashboard.create(env);
    await Promise.all([a.start(), b.start()]);
    db = new pg.Client({ connectionString: location.url });
    await db.connect();
    cookie = await a.cookieFor(ADMIN_KEY);
    expect(
      (await a.request(`/api/stores/${US_STORE}/grants`, { method: "POST", cookie, body: JSON.stringify({ consent: true }) })).status,
    ).toBe(201);
  }, 600_000);

  afterAll(async () => {
    await Promise.allSettled([a?.kill(), b?.kill()]);
    await db?.end();
    await sink?.close();
    await upstream?.close();
    await drop?.();
  }, 60_000);

  const schedule = (name: string, recipients: string[]) => a.dailyDigest(cookie, name, recipients);

  const received = (address: string) => sink.messages.filter((message) => JSON.stringify(message.to).includes(address)).length;

  it("delivers each due slot once, the work shared by both instances", async () => {
    const ids: string[] = [];
    for (let index = 0; index < SCHEDULES; index++)
      ids.push(await schedule(`Shared ${index}`, [`shared-${index}@example.com`, `copy-${index}@example.com`]));
    // Every schedule due now, and a planner run queued now rather than at the next minute's slot: it hands them out.
    await db.query("update digest_schedules set next_run_at = now() - interval '1 second' where id = any($1)", [ids]);
    // The instances queue the planner themselves, a run per minute: this minute's has run by now.
    const { rows: plannerRuns } = await db.query(
      "select 1 from jobs where name = 'digest.plan' and unique_key like 'digest.plan@%:00.000Z'",
    );
    expect(plannerRuns.length).toBeGreaterThan(0);
    await db.query("insert into jobs (name, payload, unique_key, max_attempts) values ('digest.plan', '{}', 'digest.plan@test', 1)");
    await sink.waitFor(SCHEDULES * 2, 150_000);
    await sleep(3_000);
    for (let index = 0; index < SCHEDULES; index++) {
      expect(received(`shared-${index}@example.com`)).toBe(1);
      expect(received(`copy-${index}@example.com`)).toBe(1);
    }
    const { rows } = await db.query<{ workers: string }>(
      "select count(distinct split_part(locked_by, ':', 2))::text as workers from jobs where name = 'digest.send' and state = 'done'",
    );
    expect(Number(rows[0]!.workers)).toBe(2);
  }, 200_000);

  it("does not send a message twice when its instance is killed mid-send: the outcome becomes unknown", async () => {
    const id = await schedule("Killed mid-send", ["killed@example.com"]);
    sink.hold(60_000);
    const before = sink.messages.length;
    const sent = await a.request(`/api/stores/${US_STORE}/digests/${id}/send`, { method: "POST", cookie });
    expect(sent.status).toBe(202);
    const { jobId } = (await sent.json()) as { jobId: string };
    await sink.waitFor(before + 1, 30_000);
    // The SMTP server has the message and has not answered: kill -9 whichever instance sends it.
    const { rows } = await db.query<{ lockedBy: string }>(`select locked_by as "lockedBy" from jobs where id = $1`, [jobId]);
    const pid = Number(rows[0]!.lockedBy.split(":")[1]);
    const sender = [a, b].find((instance) => instance.script?.child.pid === pid)!;
    await sender.kill();
    sink.hold(0);
    // Another instance takes the job once its lease lapses and finds the delivery begun: unknown, not sent again.
    for (let waited = 0; waited < 120_000; waited += 500) {
      const { rows: deliveries } = await db.query<{ outcome: string }>(
        "select outcome from deliveries where recipient = 'killed@example.com'",
      );
      if (deliveries[0]?.outcome === "unknown") break;
      await sleep(500);
    }
    const { rows: final } = await db.query<{ outcome: string; detail: string }>(
      "select outcome, detail from deliveries where recipient = 'killed@example.com'",
    );
    expect(final).toEqual([{ outcome: "unknown", detail: expect.stringContaining("stopped mid-send") }]);
    await sleep(2_000);
    expect(received("killed@example.com")).toBe(1);
    if (sender === a) await a.start();
  }, 200_000);
});
