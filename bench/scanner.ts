/**
 * The rows worker's own work on a year of product rows, without a worker, a server or a database:
 * reading the body and summing it, by the JSON decoder (TextDecoder, JSON.parse of each chunk's
 * elements, isMetricRow) and by the row scanner (row-scanner.ts), on the same bytes in the same
 * run, in chunks of 256 KiB as the worker receives them: "read" (rows read and checked, only
 * counted), "sums" (a view without the rollups) and "days" (the day rollups, with each day's cells
 * written as array literals by dayWrite).
 *
 *   npm run bench -- scanner   (or npx tsx bench/run.ts scanner)
 *
 * SCANNER_BENCH_SCALE sets the demo upstream's scale (default 10: about 340k rows a year);
 * SCANNER_BENCH_ROUNDS the rounds (default 5, the median is shown). The demo upstream listens on
 * SCANNER_BENCH_PORT (default 0: a free port).
 */
import { isMetricRow, type MetricRow } from "@/server/metrics/aggregate";
import { JsonArrayDecoder } from "@/server/metrics/json-array-stream";
import { RowScanner } from "@/server/metrics/row-scanner";
import { RowShapeError, RowSums, type RowSumsOptions } from "@/server/metrics/row-sums";
import { DayCells, dayWrite } from "@/server/rollups/cells";
import { RangeSummary } from "@/server/rollups/range-summary";
import { ADMIN_KEY, startDemoUpstreamProcess, US_STORE } from "./processes";

const YEAR = { startDate: "2025-01-01", endDate: "2025-12-31" };
const CHUNK_BYTES = 256 * 1024;

async function yearBody(baseUrl: string): Promise<Uint8Array[]> {
  const response = await fetch(`${baseUrl}/ad-metrics/${US_STORE}/products?${new URLSearchParams(YEAR)}`, {
    headers: { "x-api-key": ADMIN_KEY },
  });
  if (!response.ok) throw new Error(`the upstream answered ${response.status}`);
  const body = new Uint8Array(await response.arrayBuffer());
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < body.length; at += CHUNK_BYTES) chunks.push(body.slice(at, at + CHUNK_BYTES));
  return chunks;
}

type Mode = "read" | "sums" | "days";

const options = (mode: "sums" | "days"): RowSumsOptions =>
  mode === "sums" ? { mode } : { mode, filter: {}, summary: new RangeSummary().state(), keepCells: [], write: true };

/** The reading before the scanner: decoded text, JSON.parse per chunk, then each element checked. */
function decoded(chunks: Uint8Array[], sums: RowSums) {
  const decoder = new JsonArrayDecoder();
  const take = (elements: unknown[]) => {
    for (const element of elements) {
      if (!isMetricRow(element)) throw new RowShapeError("a row in an unexpected shape");
      sums.add(element);
    }
  };
  for (const chunk of chunks) {
    take(decoder.push(chunk));
    sums.takeClosedDays();
  }
  take(decoder.end());
  decoder.checkComplete();
}

function scanned(chunks: Uint8Array[], sums: RowSums) {
  const scanner = new RowScanner();
  for (const chunk of chunks) {
    scanner.push(chunk, sums.add);
    sums.takeClosedDays();
  }
  scanner.end();
  scanner.checkComplete();
}

/** Reading and checking alone: each row only counted. */
function counted(): RowSums {
  const sums = new RowSums(options("sums"));
  return Object.assign(Object.create(sums) as RowSums, { add: () => void sums.rows++ });
}

function timed(read: typeof decoded, chunks: Uint8Array[], mode: Mode) {
  const sums = mode === "read" ? counted() : new RowSums(options(mode));
  const started = performance.now();
  const cpu = process.cpuUsage();
  read(chunks, sums);
  const result = sums.finish();
  const { user, system } = process.cpuUsage(cpu);
  return {
    ms: performance.now() - started,
    cpuMs: (user + system) / 1000,
    rows: sums.rows,
    revenue: result.sums?.totals.revenue ?? result.summary?.series.size,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** dayWrite alone, over every day of the body (cells summed once beforehand). */
function dayWrites(chunks: Uint8Array[], rounds: number): { ms: number; days: number; cells: number } {
  const days: DayCells[] = [];
  const scanner = new RowScanner();
  const add = (row: MetricRow) => {
    if (row.date !== days.at(-1)?.day) days.push(new DayCells(row.date));
    days.at(-1)!.add(row);
  };
  for (const chunk of chunks) scanner.push(chunk, add);
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const started = performance.now();
    for (const day of days) dayWrite(day, false);
    times.push(performance.now() - started);
  }
  return { ms: median(times), days: days.length, cells: days.reduce((sum, day) => sum + day.cells.size, 0) };
}

export async function benchScanner(): Promise<void> {
  const scale = process.env.SCANNER_BENCH_SCALE ?? "10";
  const rounds = Number(process.env.SCANNER_BENCH_ROUNDS ?? "5");
  const upstream = await startDemoUpstreamProcess(["--scale", scale, "--port", process.env.SCANNER_BENCH_PORT ?? "0"]);
  let chunks: Uint8Array[];
  try {
    chunks = await yearBody(upstream.baseUrl);
  } finally {
    await upstream.stop();
  }
  const bytes = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  const mb = bytes / 1024 / 1024;
  console.log(`\nRows read and summed from a year's body (demo upstream --scale ${scale}, ${mb.toFixed(1)} MiB), median of ${rounds}`);
  console.log("| Mode | JSON decoder | Row scanner | Scanner / decoder (wall) | Scanner / decoder (CPU) | Rows |");
  console.log("|---|---|---|---|---|---|");
  for (const mode of ["read", "sums", "days"] as const) {
    const old = { ms: [] as number[], cpu: [] as number[] };
    const now = { ms: [] as number[], cpu: [] as number[] };
    let rows = 0;
    for (let round = 0; round < rounds; round++) {
      // Alternated, so a change of the machine's load falls on both.
      const a = timed(decoded, chunks, mode);
      const b = timed(scanned, chunks, mode);
      if (a.rows !== b.rows || !Object.is(a.revenue, b.revenue)) throw new Error(`the two readings differ: ${JSON.stringify([a, b])}`);
      old.ms.push(a.ms);
      old.cpu.push(a.cpuMs);
      now.ms.push(b.ms);
      now.cpu.push(b.cpuMs);
      rows = a.rows;
    }
    const rate = (times: typeof old) =>
      `${Math.round(median(times.ms))} ms (CPU ${Math.round(median(times.cpu))} ms), ${(mb / (median(times.ms) / 1000)).toFixed(0)} MiB/s`;
    const ratio = (key: "ms" | "cpu") => (median(now[key]) / median(old[key])).toFixed(2);
    console.log(`| ${mode} | ${rate(old)} | ${rate(now)} | ${ratio("ms")} | ${ratio("cpu")} | ${rows.toLocaleString("en-US")} |`);
  }
  const writes = dayWrites(chunks, rounds);
  console.log(
    `dayWrite alone: ${writes.days} days, ${writes.cells.toLocaleString("en-US")} cells in ${Math.round(writes.ms)} ms (${((writes.ms * 1000) / writes.cells).toFixed(2)} µs a cell)`,
  );
}
