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

async function view(
  env: Record<string, string>,
  baseUrl: string,
  range: typeof YEAR,
  staleDay?: string,
  mode = "view",
): Promise<ViewResult> {
  const args = ["--conditions=react-server", "--import", "tsx", "bench/rollups-worker.ts", baseUrl, range.startDate, range.endDate];
  const { stdout } = await run(process.execPath, staleDay ? [...args, staleDay] : args, {
    cwd: ROOT,
    env: { ...process.env, ...env, ROLLUP_BENCH_MODE: mode },
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

/** The last 13 months filled as a sign-in's warm-up does, then the last 365 closed days viewed by another process. */
async function warmedYear(env: Record<string, string>, baseUrl: string) {
  const today = new Date();
  const month = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 12, 1)).toISOString().slice(0, 10);
  const yesterday = new Date(today.getTime() - 86_400_000).toISOString().slice(0, 10);
  const yearAgo = new Date(today.getTime() - 365 * 86_400_000).toISOString().slice(0, 10);
  const fill = await view(env, baseUrl, { startDate: month, endDate: yesterday }, undefined, "warm-up");
  const look = await view(env, baseUrl, { startDate: yearAgo, endDate: yesterday });
  return { fill, look };
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
        const off = await view(storage.env, upstream.baseUrl, YEAR, undefined, "off");
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
        // The table (issue 33): each read's ratio to the floor, in this run.
        const ratio = (ms: number) => (ms / streamMs).toFixed(3);
        const recent = await warmedYear(storage.env, upstream.baseUrl);
        console.log(`  the year with ROLLUPS=off                ${ratio(off.wallMs)} × the floor (goal ≤ 1.5)`);
        console.log(
          `  the year, first read, rollups on         ${ratio(cold.wallMs)} × the floor, ${(cold.wallMs / off.wallMs).toFixed(3)} × ROLLUPS=off (goal ≤ 1.05); its fills took ${cold.savedMs - cold.wallMs} ms behind it`,
        );
        console.log(
          `  the same year after a restart            ${ratio(warm.wallMs)} × (goal ≤ 0.05), same totals: ${warm.rows === cold.rows && warm.revenue === cold.revenue}`,
        );
        console.log(`  the year shifted 7 days                  ${ratio(shifted.wallMs)} × (goal ≤ 0.10)`);
        console.log(
          `  after a warm-up, first look at the year  ${ratio(recent.look.wallMs)} × (goal ≤ 0.10); the warm-up's fills took ${recent.fill.savedMs} ms`,
        );
        console.log(
          `  peak RSS (MB): off ${off.peakRssMb}, cold read + fills ${cold.peakRssMb}, warm ${warm.peakRssMb}, shifted ${shifted.peakRssMb}, ` +
            `restated ${restated.peakRssMb}, warm-up ${recent.fill.peakRssMb} (goal ≤ 300)`,
        );
        console.log(
          `  event-loop p99 (ms): off ${off.loopDelayMs.answerP99.toFixed(0)}, cold read ${cold.loopDelayMs.answerP99.toFixed(0)}, ` +
            `during its fills ${cold.loopDelayMs.withWritesP99.toFixed(0)}, warm-up ${recent.fill.loopDelayMs.withWritesP99.toFixed(0)}`,
        );
        line("year with ROLLUPS=off", off);
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
