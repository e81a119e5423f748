/**
 * One aggregation in a process of its own, so its peak memory is its own. Run by
 * bench/aggregation.ts as `node --conditions=react-server --import tsx bench/aggregation-worker.ts <mode> …`.
 *   stream:   the dashboard's code path (streamed reading, row checks, aggregation)
 *   baseline: `await res.json()` and then a reduce into the same aggregation
 */
import { readFileSync } from "node:fs";
import { ProductMetricsAggregator, type MetricRow } from "@/server/metrics/aggregate";
import { openProductRows } from "@/server/metrics/product-rows";
import { upstreamClient } from "@/server/upstream/client";

const [mode, baseUrl, apiKey, storeUrl, startDate, endDate] = process.argv.slice(2) as [string, string, string, string, string, string];

function peakRssMb(): number {
  const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync("/proc/self/status", "utf8"));
  return match ? Math.round(Number(match[1]) / 102.4) / 10 : Number.NaN;
}

async function stream(aggregator: ProductMetricsAggregator) {
  process.env.UPSTREAM_BASE_URL = baseUrl;
  process.env.UPSTREAM_TIMEOUT_MS = "300000";
  const rows = await openProductRows(upstreamClient({ apiKey, requestId: "bench" }), storeUrl, { startDate, endDate });
  for await (const batch of rows.batches) for (const row of batch) aggregator.add(row);
}

async function baseline(aggregator: ProductMetricsAggregator) {
  const url = `${baseUrl}/ad-metrics/${encodeURIComponent(storeUrl)}/products?startDate=${startDate}&endDate=${endDate}`;
  const res = await fetch(url, { headers: { "x-api-key": apiKey } });
  const rows = (await res.json()) as MetricRow[];
  rows.reduce((sum, row) => (sum.add(row), sum), aggregator);
}

async function main() {
  const aggregator = new ProductMetricsAggregator();
  const started = performance.now();
  await (mode === "stream" ? stream(aggregator) : baseline(aggregator));
  const result = aggregator.result(2);
  const wallMs = performance.now() - started;
  process.stdout.write(
    JSON.stringify({ mode, rows: result.totals.rows, orders: result.totals.orders, wallMs: Math.round(wallMs), peakRssMb: peakRssMb() }),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
