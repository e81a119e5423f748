/**
 * Server aggregation of 100,000 and 1,000,000 rows: the dashboard's streamed path against
 * the baseline `await res.json()` and a reduce, each in a fresh process, in one run; then
 * arrays of a few very large elements (bench/aggregation-large-elements.ts).
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { benchLargeElements } from "./aggregation-large-elements";
import { ADMIN_KEY, ROOT, startDemoUpstreamProcess, US_STORE } from "./processes";

const run = promisify(execFile);

interface WorkerResult {
  mode: string;
  rows: number;
  orders: number;
  wallMs: number;
  peakRssMb: number;
}

async function worker(mode: "stream" | "baseline", baseUrl: string, startDate: string, endDate: string): Promise<WorkerResult> {
  const { stdout } = await run(
    process.execPath,
    [
      "--conditions=react-server",
      "--max-old-space-size=4096",
      "--import",
      "tsx",
      "bench/aggregation-worker.ts",
      mode,
      baseUrl,
      ADMIN_KEY,
      US_STORE,
      startDate,
      endDate,
    ],
    { cwd: ROOT, maxBuffer: 1 << 20 },
  );
  return JSON.parse(stdout) as WorkerResult;
}

export async function benchAggregation() {
  // At scale 35 the US store has about 3,250 rows a day in 2025.
  const upstream = await startDemoUpstreamProcess(["--scale", "35"]);
  const sizes = [
    { label: "100k rows", startDate: "2025-03-01", endDate: "2025-03-31" },
    { label: "1M rows", startDate: "2025-01-01", endDate: "2025-12-31" },
  ];
  try {
    console.log("\nServer aggregation (each in a fresh process; peak RSS is the process's VmHWM)");
    for (const size of sizes) {
      // Alternate the order so neither side always runs on a warmer machine.
      const baseline = await worker("baseline", upstream.baseUrl, size.startDate, size.endDate);
      const stream = await worker("stream", upstream.baseUrl, size.startDate, size.endDate);
      if (stream.rows !== baseline.rows || stream.orders !== baseline.orders)
        throw new Error(`the two paths disagree: ${JSON.stringify({ stream, baseline })}`);
      const line = (name: string, r: WorkerResult) =>
        `  ${name.padEnd(30)} ${String(r.wallMs).padStart(6)} ms   peak RSS ${String(r.peakRssMb).padStart(7)} MB`;
      console.log(`${size.label}: ${stream.rows.toLocaleString("en-US")} rows (${size.startDate} to ${size.endDate})`);
      console.log(line("baseline: res.json() + reduce", baseline));
      console.log(line("dashboard: streamed aggregation", stream));
      console.log(
        `  time ratio (streamed / baseline) ${(stream.wallMs / baseline.wallMs).toFixed(2)}   memory ratio ${(stream.peakRssMb / baseline.peakRssMb).toFixed(2)}`,
      );
    }
  } finally {
    await upstream.stop();
  }
  await benchLargeElements();
}
