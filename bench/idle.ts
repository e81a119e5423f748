/**
 * What the dashboard costs its database while nobody uses it, and how soon queued work starts:
 * on a new PostgreSQL database (on the server of BENCH_DATABASE_URL), the transactions a minute
 * (`pg_stat_database`, over IDLE_BENCH_SECONDS, 60 by default) with no instance (the baseline:
 * what the server itself counts), one idle production instance and two; then the start of a job
 * queued by another connection, and "Send now" until its message is in the Outbox (median of 3).
 */
import pg from "pg";
import { freePort } from "@/test/processes";
import { ADMIN_KEY, signInCookie, startDashboardProcess, startDemoUpstreamProcess, US_STORE } from "./processes";

const SECONDS = Number(process.env.IDLE_BENCH_SECONDS ?? 60);
/** A started instance runs the current slot of every recurring job: measured once that has settled. */
const SETTLE_MS = 15_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Measured with this benchmark on the queue that polled every second (docs/benchmarks.md, "Idle"). */
const BEFORE = { one: "571", two: "1,153", start: "536 ms", send: "1,254 ms" };
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function post(origin: string, cookie: string, path: string, body?: unknown): Promise<{ id: string }> {
  const response = await fetch(`${origin}${path}`, {
    method: "POST",
    headers: { cookie, origin, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as { id: string };
}

/** The database's committed and rolled back transactions per minute over SECONDS, read from another database. */
async function perMinute(admin: pg.Client, name: string): Promise<number> {
  const read = async () => {
    await admin.query("select pg_stat_clear_snapshot()");
    const { rows } = await admin.query<{ count: string }>(
      "select xact_commit + xact_rollback as count from pg_stat_database where datname = $1",
      [name],
    );
    return Number(rows[0]!.count);
  };
  const before = await read();
  await sleep(SECONDS * 1000);
  // Backends report their counts at most once a second (and idle ones within 10 s): waited for at both ends alike.
  return ((await read()) - before) * (60 / SECONDS);
}

/** From a job queued by another connection (a NOTIFY-less insert, as any writer may do) to its run's start. */
async function queuedJobStarts(db: pg.Client): Promise<number[]> {
  const waits: number[] = [];
  for (let index = 0; index < 5; index++) {
    const { rows } = await db.query<{ id: string }>(
      "insert into jobs (name, payload, max_attempts) values ('jobs.prune', '{}', 1) returning id::text as id",
    );
    for (let waited = 0; ; waited += 20) {
      const { rows: started } = await db.query<{ ms: number | null }>(
        "select extract(epoch from started_at - created_at) * 1000 as ms from jobs where id = $1",
        [rows[0]!.id],
      );
      if (started[0]!.ms !== null) {
        waits.push(Number(started[0]!.ms));
        break;
      }
      if (waited > 30_000) throw new Error("a queued job did not start within 30 s");
      await sleep(20);
    }
    await sleep(1_500);
  }
  return waits;
}

/** "Send now" of three digests, each until its message is in the Outbox as the Outbox page reads it. */
async function sendNowToOutbox(origin: string): Promise<number[]> {
  const cookie = await signInCookie(origin, ADMIN_KEY);
  await post(origin, cookie, `/api/stores/${US_STORE}/grants`, { consent: true });
  const waits: number[] = [];
  for (let index = 0; index < 3; index++) {
    const view = await post(origin, cookie, `/api/stores/${US_STORE}/saved-views`, {
      name: `Idle bench ${index}`,
      search: "range=custom&from=2026-01-01&to=2026-01-07",
    });
    const recipient = `idle-bench-${index}@example.com`;
    const digest = await post(origin, cookie, `/api/stores/${US_STORE}/digests`, {
      savedViewId: view.id,
      cadence: "daily",
      localTime: "06:00",
      recipients: [recipient],
    });
    const pressed = performance.now();
    await post(origin, cookie, `/api/stores/${US_STORE}/digests/${digest.id}/send`);
    for (;;) {
      const response = await fetch(`${origin}/api/outbox?store=${US_STORE}`, { headers: { cookie } });
      const { messages } = (await response.json()) as { messages: { recipient: string }[] };
      if (messages.some((message) => message.recipient === recipient)) break;
      if (performance.now() - pressed > 60_000) throw new Error("Send now did not reach the Outbox within 60 s");
      await sleep(25);
    }
    waits.push(performance.now() - pressed);
  }
  return waits;
}

export async function benchIdle(): Promise<void> {
  const server = new URL(process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
  const name = `${server.pathname.slice(1) || "dash"}_idle_${Date.now()}`.slice(0, 60);
  const admin = new pg.Client({ connectionString: server.toString() });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  const upstream = await startDemoUpstreamProcess();
  const env = { DATABASE_URL: url.toString(), EMBEDDED_DATABASE: "", DELEGATION_KEY: "idle-bench-master-key-".padEnd(48, "m") };
  const instances: Awaited<ReturnType<typeof startDashboardProcess>>[] = [];
  const db = new pg.Client({ connectionString: url.toString() });
  try {
    console.log(`\nIdle: transactions a minute on a new PostgreSQL database (pg_stat_database over ${SECONDS} s, nobody signed in)`);
    console.log("| Instances | Transactions a minute | Before (a 1 s poll, measured the same way) |");
    console.log("|---|---|---|");
    console.log(`| none (the baseline) | ${Math.round(await perMinute(admin, name))} | - |`);
    for (const [count, before] of [
      [1, BEFORE.one],
      [2, BEFORE.two],
    ] as const) {
      instances.push(await startDashboardProcess(upstream.baseUrl, await freePort(), env));
      await sleep(SETTLE_MS);
      console.log(`| ${count === 1 ? "one" : "two"} | ${Math.round(await perMinute(admin, name))} | ${before} |`);
    }
    await db.connect();
    const starts = await queuedJobStarts(db);
    console.log(
      `  a job queued by another connection started after ${starts.map(Math.round).join(", ")} ms (median ${Math.round(median(starts))} ms; before: ${BEFORE.start})`,
    );
    const sends = await sendNowToOutbox(instances[0]!.origin);
    console.log(
      `  Send now to the Outbox: ${sends.map(Math.round).join(", ")} ms (median ${Math.round(median(sends))} ms; before: ${BEFORE.send})`,
    );
  } finally {
    for (const instance of instances) await instance.stop();
    await upstream.stop();
    await db.end().catch(() => undefined);
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.end();
  }
}
