/**
 * Views of a year filtered by country or device through the day rollups on PostgreSQL, each
 * under its own filter key, against the upstream's own time to stream the same filtered year:
 * cold, warm (a restarted instance), and the unfiltered year after them (another key's days
 * are not reused). Each view runs in a process of its own (bench/rollups-worker.ts).
 *
 *   npx tsx bench/rollups-filtered.ts [upstream base URL]
 *
 * Without a URL it starts a demo upstream at ROLLUP_BENCH_SCALE (default 3); BENCH_DATABASE_URL
 * names the PostgreSQL server (a database is created and dropped).
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { ADMIN_KEY, benchStorages, ROOT, startDemoUpstreamProcess, US_STORE } from "./processes";

const run = promisify(execFile);
const YEAR = { startDate: "2025-01-01", endDate: "2025-12-31" };

interface ViewResult {
  wallMs: number;
  rows: number;
  revenue: number;
  daysFromRollups: number;
  daysFromUpstream: number;
  upstreamRequests: number;
  cells: number;
}

async function view(env: Record<string, string>, baseUrl: string, filters: Record<string, string>): Promise<ViewResult> {
  const args = ["--conditions=react-server", "--import", "tsx", "bench/rollups-worker.ts", baseUrl, YEAR.startDate, YEAR.endDate];
  const { stdout } = await run(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env, ROLLUP_BENCH_FILTERS: JSON.stringify(filters) },
    maxBuffer: 1 << 20,
  });
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as ViewResult;
}

async function upstreamStreamMs(baseUrl: string, filters: Record<string, string>): Promise<number> {
  const started = performance.now();
  const query = new URLSearchParams({ ...YEAR, ...filters });
  const response = await fetch(`${baseUrl}/ad-metrics/${US_STORE}/products?${query}`, { headers: { "x-api-key": ADMIN_KEY } });
  for await (const chunk of response.body!) void chunk;
  return Math.round(performance.now() - started);
}

async function main() {
  const given = process.argv[2];
  const started = given ? undefined : await startDemoUpstreamProcess(["--scale", process.env.ROLLUP_BENCH_SCALE ?? "3"]);
  const baseUrl = given ?? started!.baseUrl;
  const storages = await benchStorages();
  try {
    const postgres = storages.find((storage) => storage.name === "PostgreSQL");
    if (!postgres) return;
    const line = (name: string, r: ViewResult, streamMs: number) =>
      console.log(
        `| ${name} | ${r.rows.toLocaleString("en-US")} | ${r.wallMs.toLocaleString("en-US")} ms | ${(r.wallMs / streamMs).toFixed(2)} | ` +
          `${r.daysFromUpstream} in ${r.upstreamRequests} request(s) | ${r.daysFromRollups} | ${r.cells.toLocaleString("en-US")} |`,
      );
    console.log(`Filtered views of 2025 on PostgreSQL (${baseUrl})`);
    console.log("| View | rows | time | ratio to the upstream's streaming | days upstream | days from rollups | cells held after |");
    console.log("|---|---|---|---|---|---|---|");
    const keys: Record<string, string>[] = [{ filterCountry: "US" }, { filterDeviceType: "desktop" }];
    for (const filters of keys) {
      const name = Object.entries(filters)
        .map(([k, v]) => `${k}=${v}`)
        .join("&");
      const streamMs = Math.min(await upstreamStreamMs(baseUrl, filters), await upstreamStreamMs(baseUrl, filters));
      console.log(`| upstream's own streaming, ${name} | | ${streamMs.toLocaleString("en-US")} ms | 1.00 | | | |`);
      line(`${name}, cold`, await view(postgres.env, baseUrl, filters), streamMs);
      line(`${name}, warm (after restart)`, await view(postgres.env, baseUrl, filters), streamMs);
    }
    const streamMs = await upstreamStreamMs(baseUrl, {});
    console.log(`| upstream's own streaming, unfiltered | | ${streamMs.toLocaleString("en-US")} ms | 1.00 | | | |`);
    line("unfiltered, after the filtered keys", await view(postgres.env, baseUrl, {}), streamMs);
  } finally {
    for (const storage of storages) await storage.drop();
    await started?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
