/**
 * Isolation under row-level security: the light requests of one user (admin of Northwind EU)
 * while another (admin of Northwind US) reads a full year of product metrics, against the same
 * requests idle in the same run. Every query runs under SET LOCAL ROLE and the reach's
 * set_config; the idle rows show that per-request cost next to a route that reads no database.
 * ISOLATION_BENCH_SCALE sets the demo upstream's scale (default 35: about 1.2 million rows a year).
 */
import { percentile } from "./paced-load";
import { benchStorages, signInCookie, startDashboardProcess, startDemoUpstreamProcess, US_STORE, type BenchStorage } from "./processes";

const EU_KEY = "sk_demo_admin_nw_eu_2a7f94c1e8b3";
const EU_STORE = "northwind-eu.myshopify.com";
const YEAR = { startDate: "2025-01-01", endDate: "2025-12-31" };
const DASHBOARD_PORT = 3400;
const UPSTREAM_PORT = 3401;
const INTERVAL_MS = 50;
const IDLE_MS = 5_000;

export interface Samples {
  count: number;
  errors: number;
  p50: number;
  p99: number;
}

/** One GET every INTERVAL_MS (or as soon as the previous answered) until `until` settles. */
export async function sample(url: string, cookie: string, until: Promise<unknown>): Promise<Samples> {
  let stopped = false;
  void until.finally(() => (stopped = true)).catch(() => undefined);
  const latencies: number[] = [];
  let errors = 0;
  while (!stopped) {
    const started = performance.now();
    try {
      const response = await fetch(url, { headers: { cookie } });
      await response.arrayBuffer();
      if (response.ok) latencies.push(performance.now() - started);
      else errors++;
    } catch {
      errors++;
    }
    await new Promise((wait) => setTimeout(wait, Math.max(0, started + INTERVAL_MS - performance.now())));
  }
  latencies.sort((a, b) => a - b);
  return { count: latencies.length, errors, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99) };
}

const idle = (url: string, cookie: string) => sample(url, cookie, new Promise((done) => setTimeout(done, IDLE_MS)));

/** The page's read of the year: the NDJSON stream to its last line, which must be the result. */
export async function readYear(origin: string, cookie: string): Promise<{ ms: number; failure?: string }> {
  const started = performance.now();
  const query = new URLSearchParams(YEAR);
  const response = await fetch(`${origin}/api/stores/${US_STORE}/product-metrics?${query}`, { headers: { cookie } });
  const body = await response.text();
  const last = JSON.parse(body.trim().split("\n").at(-1)!) as { type?: string; status?: number; error?: string };
  const ms = Math.round(performance.now() - started);
  if (response.ok && last.type === "result") return { ms };
  return { ms, failure: `${last.status ?? response.status} ${last.error ?? ""}` };
}

interface Sessions {
  origin: string;
  reader: string;
  watcher: string;
}

interface Idle {
  health: Samples;
  session: Samples;
  store: Samples;
}

interface UnderLoad {
  label: string;
  yearMs: number;
  failure?: string;
  session: Samples;
}

async function signIn(origin: string): Promise<Sessions> {
  return { origin, reader: await signInCookie(origin), watcher: await signInCookie(origin, EU_KEY) };
}

async function measureIdle({ origin, watcher }: Sessions): Promise<Idle> {
  // Warm the routes (JIT, connection pools) before measuring.
  await sample(`${origin}/api/session`, watcher, new Promise((done) => setTimeout(done, 1_000)));
  await sample(`${origin}/api/stores/${EU_STORE}/saved-views`, watcher, new Promise((done) => setTimeout(done, 1_000)));
  return {
    health: await idle(`${origin}/api/health/live`, watcher),
    session: await idle(`${origin}/api/session`, watcher),
    store: await idle(`${origin}/api/stores/${EU_STORE}/saved-views`, watcher),
  };
}

async function duringYear(label: string, { origin, reader, watcher }: Sessions): Promise<UnderLoad> {
  const year = readYear(origin, reader);
  const session = await sample(`${origin}/api/session`, watcher, year);
  const { ms, failure } = await year;
  return { label, yearMs: ms, failure, session };
}

/** Resolves once the fills the year's view queued have stored every day of it (they run behind the answer). */
export async function rollupsWritten(databaseUrl: string): Promise<void> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const deadline = Date.now() + 600_000;
    while (Date.now() < deadline) {
      const { rows } = await client.query<{ days: number }>(
        "select count(*)::int as days from rollup_days where store_url = $1 and day between $2 and $3",
        [US_STORE, YEAR.startDate, YEAR.endDate],
      );
      if (rows[0]!.days >= 365) return;
      await new Promise((wait) => setTimeout(wait, 100));
    }
    throw new Error("the rollups of the year were not written within 600 s");
  } finally {
    await client.end();
  }
}

async function withDashboard<T>(baseUrl: string, env: Record<string, string>, fn: (sessions: Sessions) => Promise<T>): Promise<T> {
  // A year at scale 35 takes longer than the default deadline of one upstream read (15 s).
  const dashboard = await startDashboardProcess(baseUrl, DASHBOARD_PORT, { UPSTREAM_TIMEOUT_MS: "300000", ...env });
  try {
    return await fn(await signIn(dashboard.origin));
  } finally {
    await dashboard.stop();
  }
}

function report(storage: string, scale: string, idleRuns: Idle[], loads: UnderLoad[]) {
  const ms = (value: number) => `${value.toFixed(1).padStart(7)} ms`;
  const base = idleRuns[0]!.session;
  console.log(`\nIsolation under row-level security on ${storage}, demo upstream --scale ${scale}`);
  console.log(`Idle, one request every ${INTERVAL_MS} ms for ${IDLE_MS / 1000} s (second session):`);
  for (const [index, run] of idleRuns.entries()) {
    const rows: [string, Samples][] = [
      ["GET /api/health/live (no database)", run.health],
      ["GET /api/session", run.session],
      [`GET /api/stores/{EU}/saved-views`, run.store],
    ];
    for (const [name, r] of rows)
      console.log(`  [${index + 1}] ${name.padEnd(36)} p50 ${ms(r.p50)}   p99 ${ms(r.p99)}   n ${r.count}   errors ${r.errors}`);
  }
  console.log(`GET /api/session of the second session while the first reads ${YEAR.startDate}..${YEAR.endDate} (ratios against idle [1]):`);
  for (const load of loads) {
    const r = load.session;
    console.log(
      `  ${load.label.padEnd(26)} wall ${String(load.yearMs).padStart(6)} ms   p50 ${ms(r.p50)} (×${(r.p50 / base.p50).toFixed(2)})   ` +
        `p99 ${ms(r.p99)} (×${(r.p99 / base.p99).toFixed(2)})   n ${r.count}   errors ${r.errors}` +
        (load.failure ? `   the year read FAILED: ${load.failure}` : ""),
    );
  }
}

async function benchOn(storage: BenchStorage, baseUrl: string, scale: string) {
  const idleRuns: Idle[] = [];
  const loads: UnderLoad[] = [];
  await withDashboard(baseUrl, { ...storage.env, ROLLUPS: "off" }, async (sessions) => {
    idleRuns.push(await measureIdle(sessions));
    loads.push(await duringYear("ROLLUPS=off", sessions));
  });
  let coldStored = false;
  if (storage.name === "PostgreSQL") {
    await withDashboard(baseUrl, { ...storage.env, ROLLUPS: "on" }, async (sessions) => {
      const cold = await duringYear("ROLLUPS=on, cold", sessions);
      loads.push(cold);
      if (cold.failure) return;
      coldStored = true;
      // The year's fills run after the answer, next to the warm-up the sign-in queued.
      const started = performance.now();
      const written = rollupsWritten(storage.env.DATABASE_URL!);
      const session = await sample(`${sessions.origin}/api/session`, sessions.watcher, written);
      await written;
      loads.push({ label: "ROLLUPS=on, fills after", yearMs: Math.round(performance.now() - started), session });
    });
    // A restarted instance: the rollups are written, the in-memory view cache is empty.
    if (coldStored)
      await withDashboard(baseUrl, { ...storage.env, ROLLUPS: "on" }, async (sessions) => {
        idleRuns.push(await measureIdle(sessions));
        loads.push(await duringYear("ROLLUPS=on, warm", sessions));
      });
  }
  report(storage.name, scale, idleRuns, loads);
}

export async function benchIsolation() {
  const scale = process.env.ISOLATION_BENCH_SCALE ?? "35";
  const only = process.env.ISOLATION_BENCH_STORAGE;
  const upstream = await startDemoUpstreamProcess(["--scale", scale, "--port", String(UPSTREAM_PORT)]);
  try {
    for (const storage of await benchStorages()) {
      try {
        if (!only || only === storage.name) await benchOn(storage, upstream.baseUrl, scale);
      } finally {
        await storage.drop();
      }
    }
  } finally {
    await upstream.stop();
  }
}
