/**
 * 500 digests of different saved views, due at once, sent through a local SMTP server by two
 * dashboard instances on one PostgreSQL database: time to drain, and each sent exactly once.
 */
import pg from "pg";
import { startMailSink } from "@/test/mail-sink";
import { ADMIN_KEY, signInCookie, startDashboardProcess, startDemoUpstreamProcess, US_STORE } from "./processes";

const DIGESTS = Number(process.env.BENCH_DIGESTS ?? 500);
const DAY_MS = 86_400_000;

async function post(origin: string, cookie: string, path: string, body: unknown): Promise<{ id: string }> {
  const response = await fetch(`${origin}${path}`, {
    method: "POST",
    headers: { cookie, origin, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as { id: string };
}

export async function benchDigests() {
  const server = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  const name = `dash_bench_digests_${Date.now()}`;
  await admin.query(`create database ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  const db = new pg.Client({ connectionString: url.toString() });
  const sink = await startMailSink();
  const upstream = await startDemoUpstreamProcess();
  const env = {
    DATABASE_URL: url.toString(),
    EMBEDDED_DATABASE: "",
    SMTP_URL: sink.url,
    DELEGATION_KEY: "bench-master-key-".padEnd(48, "m"),
  };
  const instances: Awaited<ReturnType<typeof startDashboardProcess>>[] = [];
  try {
    instances.push(await startDashboardProcess(upstream.baseUrl, 3921, env));
    instances.push(await startDashboardProcess(upstream.baseUrl, 3922, env));
    await db.connect();
    const { origin } = instances[0]!;
    const cookie = await signInCookie(origin, ADMIN_KEY);
    await post(origin, cookie, `/api/stores/${US_STORE}/grants`, { consent: true });
    for (let index = 0; index < DIGESTS; index++) {
      const from = new Date(Date.UTC(2025, 0, 1) + index * DAY_MS).toISOString().slice(0, 10);
      const to = new Date(Date.UTC(2025, 0, 7) + index * DAY_MS).toISOString().slice(0, 10);
      const view = await post(origin, cookie, `/api/stores/${US_STORE}/saved-views`, {
        name: `Bench ${index}`,
        search: `range=custom&from=${from}&to=${to}`,
      });
      await post(origin, cookie, `/api/stores/${US_STORE}/digests`, {
        savedViewId: view.id,
        cadence: "daily",
        localTime: "06:00",
        recipients: [`bench-${index}@example.com`],
      });
    }
    await db.query("update digest_schedules set next_run_at = now() - interval '1 second'");
    const waitStarted = performance.now();
    await sink.waitFor(DIGESTS, 900_000);
    const waited = performance.now() - waitStarted;
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const { rows } = await db.query<{ drainMs: number; sent: number; rows: number; workers: number }>(
      `select extract(epoch from (select max(updated_at) from deliveries) - (select min(created_at) from jobs where name = 'digest.send')) * 1000 as "drainMs",
         (select count(*)::int from deliveries where outcome = 'sent') as sent, (select count(*)::int from deliveries) as rows,
         (select count(distinct locked_by)::int from jobs where name = 'digest.send') as workers`,
    );
    const perRecipient = new Map<string, number>();
    for (const message of sink.messages) {
      const to = JSON.stringify(message.to);
      perRecipient.set(to, (perRecipient.get(to) ?? 0) + 1);
    }
    const duplicates = [...perRecipient.values()].filter((count) => count > 1).length;
    const figures = rows[0]!;
    console.log(`\nDigests: ${DIGESTS} different saved views, two instances, one PostgreSQL, local SMTP server`);
    console.log(`  time to drain (first send queued → last delivery recorded): ${(Number(figures.drainMs) / 1000).toFixed(1)} s`);
    console.log(`  waited from "all due" (includes up to 60 s for the planner's next minute): ${(waited / 1000).toFixed(1)} s`);
    console.log(
      `  messages received ${sink.messages.length}, distinct recipients ${perRecipient.size}, recipients with duplicates ${duplicates}`,
    );
    console.log(`  ledger: ${figures.sent} sent of ${figures.rows} rows; instances that ran sends: ${figures.workers}`);
  } finally {
    for (const instance of instances) await instance.stop();
    await upstream.stop();
    await sink.close();
    await db.end().catch(() => undefined);
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}
