/**
 * The dashboard process's memory on each storage, first start included: RSS when ready on a new
 * data directory (or database), idle a few seconds later, and the peak (VmHWM) through a year's
 * aggregation of the US store at scale 35 (about 1.2 M rows) with its year-earlier comparison.
 * PostgreSQL is the baseline measured in the same run: the difference is what PGlite costs.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { benchStorages, ROOT, signInCookie, startDemoUpstreamProcess, US_STORE, type BenchStorage } from "./processes";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function statusMb(pid: number, field: "VmRSS" | "VmHWM"): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Math.round(Number(match?.[1] ?? 0) / 1024);
}

interface MemoryFigures {
  storage: string;
  readyMs: number;
  readyMb: number;
  idleMb: number;
  aggregationMs: number;
  peakMb: number;
}

async function measure(storage: BenchStorage, upstreamBaseUrl: string, port: number): Promise<MemoryFigures> {
  const started = performance.now();
  const child = spawn(process.execPath, ["scripts/serve.mjs"], {
    cwd: ROOT,
    stdio: "ignore",
    env: {
      ...process.env,
      NODE_ENV: "production",
      UPSTREAM_BASE_URL: upstreamBaseUrl,
      PORT: String(port),
      SESSION_SECRET: "bench-secret-".padEnd(48, "x"),
      EMBEDDED_DATABASE: "1",
      LOG_LEVEL: "warn",
      ...storage.env,
    },
  });
  const origin = `http://127.0.0.1:${port}`;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the dashboard exited (code ${child.exitCode})`);
      const ready = await fetch(`${origin}/api/health/ready`).then(
        (response) => response.ok,
        () => false,
      );
      if (ready) break;
      await sleep(100);
    }
    const readyMs = performance.now() - started;
    const readyMb = statusMb(child.pid!, "VmRSS");
    const cookie = await signInCookie(origin);
    await sleep(5_000);
    const idleMb = statusMb(child.pid!, "VmRSS");
    const query = new URLSearchParams({ startDate: "2025-01-01", endDate: "2025-12-31", compare: "year" });
    const aggregationStarted = performance.now();
    const response = await fetch(`${origin}/api/stores/${US_STORE}/product-metrics?${query}`, { headers: { cookie } });
    if (!response.ok) throw new Error(`product metrics answered ${response.status}`);
    await response.arrayBuffer();
    const aggregationMs = performance.now() - aggregationStarted;
    return { storage: storage.name, readyMs, readyMb, idleMb, aggregationMs, peakMb: statusMb(child.pid!, "VmHWM") };
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once("exit", resolve)));
  }
}

export async function benchMemory(): Promise<MemoryFigures[]> {
  const upstream = await startDemoUpstreamProcess(["--scale", "35"]);
  const storages = await benchStorages();
  const results: MemoryFigures[] = [];
  try {
    for (const [index, storage] of storages.entries()) results.push(await measure(storage, upstream.baseUrl, 3900 + index));
  } finally {
    await upstream.stop();
    for (const storage of storages) await storage.drop();
  }
  console.log("\nDashboard process memory, first start on a new database (the production server of the current release)");
  console.log("  storage      ready in   RSS ready   RSS idle   year aggregated in   peak RSS (VmHWM)");
  for (const r of results) {
    console.log(
      `  ${r.storage.padEnd(12)} ${`${(r.readyMs / 1000).toFixed(1)} s`.padStart(8)} ${`${r.readyMb} MB`.padStart(11)} ${`${r.idleMb} MB`.padStart(10)} ${`${(r.aggregationMs / 1000).toFixed(1)} s`.padStart(20)} ${`${r.peakMb} MB`.padStart(18)}`,
    );
  }
  const [embedded, postgres] = results;
  if (embedded && postgres)
    console.log(
      `  PGlite against PostgreSQL: idle ×${(embedded.idleMb / postgres.idleMb).toFixed(2)}, peak ×${(embedded.peakMb / postgres.peakMb).toFixed(2)}`,
    );
  return results;
}
