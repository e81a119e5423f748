/**
 * Views of a year through the day rollups against the upstream's own streaming time of the
 * same year, measured in the same run: cold (empty rollups), warm (a restarted instance), the
 * year shifted by 7 days, and after a restated day is read again. ROLLUP_BENCH_SCALE sets the
 * demo upstream's scale (default 35: about 1.2 million rows a year; use 2–5 on a shared machine).
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { readJsonArray } from "@/server/metrics/json-array-stream";
import { ADMIN_KEY, benchStorages, ROOT, startDemoUpstreamProcess, US_STORE } from "./processes";

const run = promisify(execFile);
const YEAR = { startDate: "2025-01-01", endDate: "2025-12-31" };
const SHIFTED = { startDate: "2025-01-08", endDate: "2026-01-07" };
const RESTATED_DAY = "2025-06-15";

interface ViewResult {
  wallMs: number;
  savedMs: number;
  rows: number;
  revenue: number;
  daysFromRollups: number;
  daysFromUpstream: number;
  upstreamRequests: number;
  restated: number;
  cells: number;
  dayChannels: number;
  productMonths: number;
  days: number;
  /** Before the answer: looking up and claiming days (upstream reads included), then summing the held ones. */
  timings: { lookMs: number; summarizeMs: number };
  storedRows: { dayChannels: number; productMonths: number; cells: number };
  tableBytes: number;
  estimatedBytes: number;
  /** The viewing process's peak RSS (worker threads included) and its event loop's longest waits. */
  peakRssMb: number;
  loopDelayMs: { answerP99: number; answerMax: number; withWritesP99: number; withWritesMax: number };
}

async function view(env: Record<string, string>, baseUrl: string, range: typeof YEAR, staleDay?: string): Promise<ViewResult> {
  const args = ["--conditions=react-server", "--import", "tsx", "bench/rollups-worker.ts", baseUrl, range.startDate, range.endDate];
  const { stdout } = await run(process.execPath, staleDay ? [...args, staleDay] : args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    maxBuffer: 1 << 20,
  });
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as ViewResult;
}

/** The upstream's own time to stream the year's body, read and dropped (the floor of any full read). */
async function upstreamStreamMs(baseUrl: string): Promise<number> {
  const started = performance.now();
  const url = `${baseUrl}/ad-metrics/${US_STORE}/products?startDate=${YEAR.startDate}&endDate=${YEAR.endDate}`;
  const response = await fetch(url, { headers: { "x-api-key": ADMIN_KEY } });
  for await (const chunk of response.body!) void chunk;
  return Math.round(performance.now() - started);
}

/** The year's revenue summed from the upstream's rows themselves, to the cent. */
async function upstreamRevenue(baseUrl: string): Promise<number> {
  const url = `${baseUrl}/ad-metrics/${US_STORE}/products?startDate=${YEAR.startDate}&endDate=${YEAR.endDate}`;
  const response = await fetch(url, { headers: { "x-api-key": ADMIN_KEY } });
  let cents = 0;
  for await (const batch of readJsonArray(response.body!))
    for (const row of batch as { revenue: number }[]) cents += Math.round(row.revenue * 100);
  return cents / 100;
}

export async function benchRollups() {
  const scale = process.env.ROLLUP_BENCH_SCALE ?? "35";
  const only = process.env.ROLLUP_BENCH_STORAGE;
  const upstream = await startDemoUpstreamProcess(["--scale", scale, "--control"]);
  const origin = new URL(upstream.baseUrl).origin;
  try {
    for (const storage of await benchStorages()) {
      try {
        if (only && only !== storage.name) continue;
        await fetch(`${origin}/__control/reset`, { method: "POST" });
        const streamMs = Math.min(await upstreamStreamMs(upstream.baseUrl), await upstreamStreamMs(upstream.baseUrl));
        const cold = await view(storage.env, upstream.baseUrl, YEAR);
        const warm = await view(storage.env, upstream.baseUrl, YEAR);
        const shifted = await view(storage.env, upstream.baseUrl, SHIFTED);
        await fetch(`${origin}/__control/restate`, {
          method: "PUT",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ storeUrl: US_STORE, date: RESTATED_DAY, factor: 1.5 }),
        });
        const restated = await view(storage.env, upstream.baseUrl, YEAR, RESTATED_DAY);
        const restatedRevenue = await upstreamRevenue(upstream.baseUrl);
        if (warm.rows !== cold.rows || warm.revenue !== cold.revenue) throw new Error("the warm view disagrees with the cold one");
        if (restated.revenue === cold.revenue) throw new Error("the restated day did not change the year's revenue");
        console.log(`\nDay rollups on ${storage.name}, demo upstream --scale ${scale}: ${cold.rows.toLocaleString("en-US")} rows in 2025`);
        console.log(`  upstream's own streaming of the year   ${String(streamMs).padStart(7)} ms   (ratio 1.00)`);
        const line = (name: string, r: ViewResult) =>
          console.log(
            `  ${name.padEnd(38)} ${String(r.wallMs).padStart(7)} ms   ratio ${(r.wallMs / streamMs).toFixed(2)}   ` +
              `${r.daysFromUpstream} days upstream in ${r.upstreamRequests} request(s), ${r.daysFromRollups} from rollups; ` +
              `rollups written by ${r.savedMs} ms; peak RSS ${r.peakRssMb} MB; ` +
              `event-loop delay p99 ${r.loopDelayMs.answerP99.toFixed(0)} ms, max ${r.loopDelayMs.answerMax.toFixed(0)} ms`,
          );
        const split = (name: string, r: ViewResult) =>
          console.log(
            `    ${name}: ${r.timings.lookMs} ms to look up and read the days, ${r.timings.summarizeMs} ms summing held days ` +
              `(${r.storedRows.dayChannels} day × channel rows, ${r.storedRows.productMonths} month × product rows, ${r.storedRows.cells} cells)`,
          );
        line("year cold", cold);
        line("year warm (after restart)", warm);
        line("year shifted 7 days", shifted);
        line("after a restated day (1 day stale)", restated);
        split("warm", warm);
        split("shifted", shifted);
        console.log(
          `  after the restatement: year revenue ${cold.revenue.toFixed(2)} → ${restated.revenue.toFixed(2)} ` +
            `(the upstream's rows sum to ${restatedRevenue.toFixed(2)}: ${Math.abs(restated.revenue - restatedRevenue) < 0.005 ? "equal" : "DIFFERENT"}); ` +
            `restated days recorded: ${restated.restated}`,
        );
        console.log(
          `  size: ${cold.cells.toLocaleString("en-US")} cells, ${cold.dayChannels.toLocaleString("en-US")} day × channel rows, ` +
            `${cold.productMonths.toLocaleString("en-US")} month × product rows for ${cold.days} store-days; tables ${(cold.tableBytes / 1048576).toFixed(1)} MiB, ` +
            `budget count ${(cold.estimatedBytes / 1048576).toFixed(1)} MiB; restatements recorded: ${restated.restated}`,
        );
      } finally {
        await storage.drop();
      }
    }
  } finally {
    await upstream.stop();
  }
}
