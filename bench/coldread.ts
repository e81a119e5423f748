/**
 * The first, cold read of a year, measured from outside the production dashboard: its wall
 * time against the upstream's own streaming of the same year, the dashboard's peak RSS during
 * it, and another user's light requests (`GET /api/session`, one every 50 ms) idle and while it
 * runs. Each line runs twice: the rows parsed and summed on the event loop (ROW_WORKERS=off) and
 * on a worker thread (ROW_WORKERS=on), each on a new database, with ROLLUPS at its default
 * (on with PostgreSQL, off on PGlite). COLDREAD_BENCH_SCALE sets the demo upstream's scale
 * (default 35: about 1.2 million rows a year); COLDREAD_BENCH_STORAGE=PostgreSQL (or PGlite)
 * measures one storage only.
 */
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { cpuSnapshot, cpuSpent, describeCpu, type CpuSpent } from "./cpu";
import { readYear, rollupsWritten, sample, type Samples } from "./isolation";
import {
  ADMIN_KEY,
  benchStorages,
  signInCookie,
  startDashboardProcess,
  startDemoUpstreamProcess,
  US_STORE,
  type BenchStorage,
} from "./processes";

const EU_KEY = "sk_demo_admin_nw_eu_2a7f94c1e8b3";
const DASHBOARD_PORT = 3600;
const UPSTREAM_PORT = 4600;
const METRICS_PORT = DASHBOARD_PORT + 2;
const YEAR = { startDate: "2025-01-01", endDate: "2025-12-31" };

/** The process and every process below it (the launcher starts the server as its child). */
function processTree(root: number): number[] {
  const parents = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The parent is the 4th field, after the command in parentheses (which may hold spaces).
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // Gone meanwhile.
    }
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) for (const [pid, parent] of parents) if (parent === tree[i]) tree.push(pid);
  return tree;
}

const statusMb = (pid: number, field: "VmRSS" | "VmHWM") => {
  try {
    const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Math.round(Number(match[1]) / 1024) : 0;
  } catch {
    return 0;
  }
};

/** Linux keeps each process's peak RSS (VmHWM); writing 5 to clear_refs starts it again from now. */
function resetPeaks(root: number) {
  for (const pid of processTree(root))
    try {
      writeFileSync(`/proc/${pid}/clear_refs`, "5");
    } catch {
      // Not ours, or gone.
    }
}
/** The largest process of the tree (the dashboard server; the launcher is small). */
const largest = (root: number, field: "VmRSS" | "VmHWM") => Math.max(...processTree(root).map((pid) => statusMb(pid, field)));
const largestPid = (root: number) =>
  processTree(root).reduce((best, pid) => (statusMb(pid, "VmRSS") > statusMb(best, "VmRSS") ? pid : best), root);

/**
 * The server's own event-loop lag (prom-client's nodejs_eventloop_lag_*), in ms, since the last
 * scrape: each scrape starts the histogram again. Longest and 99th percentile.
 */
async function loopLag(): Promise<{ p99: number; max: number }> {
  const text = await (await fetch(`http://127.0.0.1:${METRICS_PORT}/metrics`)).text();
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)`, "m").exec(text)?.[1] ?? Number.NaN) * 1000;
  return { p99: value("nodejs_eventloop_lag_p99_seconds"), max: value("nodejs_eventloop_lag_max_seconds") };
}

async function upstreamStreamMs(baseUrl: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${baseUrl}/ad-metrics/${US_STORE}/products?${new URLSearchParams(YEAR)}`, {
    headers: { "x-api-key": ADMIN_KEY },
  });
  for await (const chunk of response.body!) void chunk;
  return Math.round(performance.now() - started);
}

interface Line {
  storage: string;
  workers: string;
  idle: Samples;
  during: Samples;
  yearMs: number;
  failure?: string;
  rssIdleMb: number;
  rssPeakMb: number;
  lag: { p99: number; max: number };
  idleLag: { p99: number; max: number };
  writes?: { ms: number; session: Samples; rssPeakMb: number };
  /** CPU spent from the read's start to its answer, by the server's threads and the other processes. */
  cpu: CpuSpent;
}

async function measure(storage: BenchStorage, baseUrl: string, upstreamPid: number, workers: "on" | "off"): Promise<Line> {
  const dashboard = await startDashboardProcess(baseUrl, DASHBOARD_PORT, {
    ...storage.env,
    ROW_WORKERS: workers,
    // A year at scale 35 takes longer than the default deadline of one upstream read (15 s).
    UPSTREAM_TIMEOUT_MS: "300000",
    METRICS_PORT: String(METRICS_PORT),
  });
  try {
    const reader = await signInCookie(dashboard.origin);
    const watcher = await signInCookie(dashboard.origin, EU_KEY);
    const session = `${dashboard.origin}/api/session`;
    await sample(session, watcher, new Promise((done) => setTimeout(done, 1_000)));
    await loopLag();
    const idle = await sample(session, watcher, new Promise((done) => setTimeout(done, 5_000)));
    const idleLag = await loopLag();
    const pid = dashboard.child.pid!;
    const rssIdleMb = largest(pid, "VmRSS");
    resetPeaks(pid);
    await loopLag();
    const server = largestPid(pid);
    const cpuBefore = cpuSnapshot(server, upstreamPid);
    const year = readYear(dashboard.origin, reader);
    const cpu = year.then(() => cpuSpent(cpuBefore, cpuSnapshot(server, upstreamPid), server));
    const during = await sample(session, watcher, year);
    const { ms, failure } = await year;
    const lag = await loopLag();
    const rssPeakMb = largest(pid, "VmHWM");
    const line: Line = {
      storage: storage.name,
      workers,
      idle,
      during,
      yearMs: ms,
      failure,
      rssIdleMb,
      rssPeakMb,
      lag,
      idleLag,
      cpu: await cpu,
    };
    if (storage.name === "PostgreSQL" && !failure) {
      // The rollups of the year are written after the answer.
      const started = performance.now();
      const written = rollupsWritten(storage.env.DATABASE_URL!);
      const writes = await sample(session, watcher, written);
      await written;
      line.writes = { ms: Math.round(performance.now() - started), session: writes, rssPeakMb: largest(pid, "VmHWM") };
    }
    return line;
  } finally {
    await dashboard.stop();
  }
}

function report(scale: string, streamMs: number, lines: Line[]) {
  const ms = (value: number) => `${value.toFixed(1).padStart(7)} ms`;
  const samples = (s: Samples) => `p50 ${ms(s.p50)}  p99 ${ms(s.p99)}  n ${String(s.count).padStart(4)}  errors ${s.errors}`;
  console.log(`\nCold year read (${YEAR.startDate}..${YEAR.endDate}), demo upstream --scale ${scale}`);
  console.log(`  upstream's own streaming of the year: ${streamMs} ms (ratio 1.00)`);
  for (const line of lines) {
    const name = `${line.storage}, ROW_WORKERS=${line.workers}`;
    console.log(`  ${name}`);
    console.log(
      `    idle           GET /api/session ${samples(line.idle)}   RSS ${line.rssIdleMb} MB, ` +
        `event-loop lag p99 ${line.idleLag.p99.toFixed(1)} ms max ${line.idleLag.max.toFixed(1)} ms`,
    );
    console.log(
      `    during the read GET /api/session ${samples(line.during)}   year ${line.yearMs} ms (ratio ${(line.yearMs / streamMs).toFixed(2)}), ` +
        `peak RSS ${line.rssPeakMb} MB, event-loop lag p99 ${line.lag.p99.toFixed(1)} ms max ${line.lag.max.toFixed(1)} ms` +
        (line.failure ? `   the year read FAILED: ${line.failure}` : ""),
    );
    console.log(`    ${describeCpu(line.cpu)}`);
    if (line.writes)
      console.log(
        `    rollups written GET /api/session ${samples(line.writes.session)}   ${line.writes.ms} ms after the answer, peak RSS ${line.writes.rssPeakMb} MB`,
      );
  }
  console.log("  goals: during the read p99 ≤ 25 ms; year cold ≤ 1.15 × streaming (PostgreSQL); peak RSS ≤ 300 MB");
}

export async function benchColdRead() {
  const scale = process.env.COLDREAD_BENCH_SCALE ?? "35";
  const only = process.env.COLDREAD_BENCH_STORAGE;
  const modes = (process.env.COLDREAD_BENCH_WORKERS ?? "off,on").split(",") as ("on" | "off")[];
  const upstream = await startDemoUpstreamProcess(["--scale", scale, "--port", String(UPSTREAM_PORT)]);
  const lines: Line[] = [];
  try {
    const streamMs = Math.min(await upstreamStreamMs(upstream.baseUrl), await upstreamStreamMs(upstream.baseUrl));
    for (const workers of modes) {
      // A new database for each line: the year is cold.
      for (const storage of await benchStorages()) {
        try {
          if (!only || only === storage.name) lines.push(await measure(storage, upstream.baseUrl, upstream.child.pid!, workers));
        } finally {
          await storage.drop();
        }
      }
    }
    report(scale, streamMs, lines);
  } finally {
    await upstream.stop();
  }
}
