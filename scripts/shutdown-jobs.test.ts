import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDemoUpstream, type DemoUpstream } from "@/demo-upstream/server";
import { Dashboard } from "@/test/dashboard-instances";
import { newLocation } from "@/test/databases";
import { ADMIN_KEY, US_STORE } from "@/test/harness";
import { startMailSink, type MailSink } from "@/test/mail-sink";
import { ensureBuild } from "@/test/processes";

/**
 * SIGTERM while a digest is being handed to a slow SMTP server: the worker claims nothing more,
 * the send in flight completes within SHUTDOWN_GRACE_MS and is recorded as sent, and the process
 * exits 0. A production process, a real SMTP server, one PostgreSQL database.
 */
const postgresUrl = process.env.TEST_DATABASE_URL;
const HOLD_MS = 6_000;

describe.skipIf(!postgresUrl)("stopping while a digest is being sent", () => {
  let upstream: DemoUpstream;
  let sink: MailSink;
  let dashboard: Dashboard;
  let db: pg.Client;
  let drop: () => Promise<void>;
  let cookie: string;
  let databaseUrl: string;

  beforeAll(async () => {
    ensureBuild();
    upstream = await startDemoUpstream({ port: 0 });
    sink = await startMailSink();
    const location = await newLocation("postgres");
    drop = location.drop;
    databaseUrl = location.url!;
    dashboard = await Dashboard.create({
      UPSTREAM_BASE_URL: upstream.baseUrl,
      SESSION_SECRET: "shutdown-jobs-secret-".padEnd(48, "x"),
      DELEGATION_KEY: "shutdown-jobs-master-key-".padEnd(48, "k"),
      DATABASE_URL: location.url!,
      SMTP_URL: sink.url,
      // E-mail in production links to the dashboard's public origin.
      APP_ORIGIN: "https://dashboard.example.com",
      JOBS_LEASE_SECONDS: "5",
      TRUST_PROXY_HOPS: "1",
      SHUTDOWN_GRACE_MS: "20000",
    });
    await dashboard.start();
    db = new pg.Client({ connectionString: location.url });
    await db.connect();
    cookie = await dashboard.cookieFor(ADMIN_KEY);
    const grant = await dashboard.request(`/api/stores/${US_STORE}/grants`, {
      method: "POST",
      cookie,
      body: JSON.stringify({ consent: true }),
    });
    expect(grant.status).toBe(201);
  }, 600_000);

  afterAll(async () => {
    await dashboard?.kill();
    await db?.end();
    await sink?.close();
    await upstream?.close();
    await drop?.();
  }, 60_000);

  const digest = (name: string) => dashboard.dailyDigest(cookie, name, [`${name.toLowerCase()}@example.com`]);

  it("finishes the send in flight and records it as sent, claims nothing after the signal, and exits 0", async () => {
    const first = await digest("Held");
    const second = await digest("Later");
    sink.hold(HOLD_MS);
    const pressed = await dashboard.request(`/api/stores/${US_STORE}/digests/${first}/send`, { method: "POST", cookie });
    expect(pressed.status).toBe(202);
    // The message reached the SMTP server, which holds its answer.
    await sink.waitFor(1, 30_000);

    const signalled = Date.now();
    const exited = dashboard.stop();
    // Queued after the signal: no worker of the stopping process may take it.
    const { rows } = await db.query<{ id: string }>(
      `insert into jobs (name, payload, unique_key, organization_id, run_at, max_attempts)
       values ('digest.send', $1::jsonb, $2, 'org_northwind', now(), 5) returning id::text as id`,
      [JSON.stringify({ scheduleId: second, slot: "after-signal" }), `digest.send:${second}:after-signal`],
    );
    expect(await exited).toBe(0);
    const took = Date.now() - signalled;
    expect(took).toBeGreaterThan(HOLD_MS - 2_000);
    expect(took).toBeLessThan(20_000);

    const deliveries = await db.query<{ key: string; outcome: string }>("select key, outcome from deliveries where key like $1", [
      `digest:${first}:%`,
    ]);
    expect(deliveries.rows.map((row) => row.outcome)).toEqual(["sent"]);
    const jobs = await db.query<{ id: string; state: string }>(
      "select id::text as id, state from jobs where name = 'digest.send' order by jobs.id",
    );
    expect(jobs.rows).toEqual([
      { id: expect.any(String), state: "done" },
      { id: rows[0]!.id, state: "queued" },
    ]);
    expect(sink.messages).toHaveLength(1);
  }, 120_000);

  it("gives back, unstarted, the jobs a claim already in progress at the signal takes", async () => {
    if (!dashboard.running) await dashboard.start();
    // The claims of every instance take turns on this lock: held here, the dashboard's next claim waits inside it.
    const holder = new pg.Client({ connectionString: databaseUrl });
    await holder.connect();
    try {
      await holder.query("select pg_advisory_lock(7310421119)");
      const { rows } = await db.query<{ id: string }>(
        "insert into jobs (name, payload, max_attempts) values ('jobs.prune', '{}', 1) returning id::text as id",
      );
      const waiting = async () =>
        (
          await db.query<{ count: number }>(
            `select count(*)::int as count from pg_stat_activity
             where datname = current_database() and wait_event_type = 'Lock' and wait_event = 'advisory'`,
          )
        ).rows[0]!.count;
      for (const deadline = Date.now() + 10_000; (await waiting()) === 0;) {
        if (Date.now() > deadline) throw new Error("no claim waited on the lock");
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const exited = dashboard.stop();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await holder.query("select pg_advisory_unlock(7310421119)");
      expect(await exited).toBe(0);
      const { rows: after } = await db.query("select state, attempts, locked_by, started_at from jobs where id = $1", [rows[0]!.id]);
      expect(after).toEqual([{ state: "queued", attempts: 0, locked_by: null, started_at: null }]);
    } finally {
      await holder.end();
    }
  }, 120_000);
});
