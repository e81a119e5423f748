/**
 * One view of a range through the day rollups, in a process of its own (a restarted instance:
 * nothing in memory, the rollups in the database). Run by bench/rollups.ts as
 * `node --conditions=react-server --import tsx bench/rollups-worker.ts <baseUrl> <startDate> <endDate> [staleDay]`
 * with DATA_DIR or DATABASE_URL naming the database, and ROLLUP_BENCH_FILTERS (JSON, optional) the
 * view's other filters. Prints one JSON line.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { openDatabase } from "@/server/db/database";
import { acrossStores, reachDb } from "@/server/db/reach";
import { settings } from "@/server/config/settings";
import { prestartRowWorker } from "@/server/metrics/rows-off-thread";
import { fillDays } from "@/server/rollups/fill";
import { daysOf, heldDays, readRange } from "@/server/rollups/reader";
import { openProductRows } from "@/server/metrics/product-rows";
import { ProductMetricsAggregator } from "@/server/metrics/aggregate";
import type { UpstreamClient } from "@/server/upstream/client";
import { restatements } from "@/server/rollups/restatements";
import { upstreamClient } from "@/server/upstream/client";
import { ADMIN_KEY, US_STORE } from "./processes";

const [baseUrl, startDate, endDate, staleDay] = process.argv.slice(2) as [string, string, string, string | undefined];
process.env.UPSTREAM_BASE_URL = baseUrl;
process.env.UPSTREAM_TIMEOUT_MS = "600000";

/** The year read as with ROLLUPS=off (server/metrics/service.ts): one request, summed on the rows worker, nothing looked up or written. */
async function offRead(client: UpstreamClient, filters: { startDate: string; endDate: string }) {
  const rows = await openProductRows(client, US_STORE, filters);
  for await (const summed of rows.summed({ mode: "sums" }))
    if (summed.sums) return new ProductMetricsAggregator(summed.sums).result(2).totals;
  return new ProductMetricsAggregator().result(2).totals;
}

async function main() {
  const db = await openDatabase({ url: process.env.DATABASE_URL, dataDir: process.env.DATA_DIR, pool: undefined });
  // The rollups are under row-level security: the store's reads and writes run with its own reach.
  const store = reachDb(db, [US_STORE]);
  try {
    // A day due to be read again, as ROLLUP_REVALIDATE_SECONDS would make it.
    if (staleDay) await store.query("update rollup_days set filled_at = filled_at - interval '2 days' where day = $1", [staleDay]);
    // As the server does when it starts (server/main.ts): the rows worker is loaded before any read.
    if (settings().upstream.rowWorkers) await prestartRowWorker();
    const policy = { db: store, freshDays: 3, revalidateSeconds: 86_400 };
    // How long the event loop was held at a time: what another request would have waited.
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    const started = performance.now();
    const filters = { startDate, endDate, ...(JSON.parse(process.env.ROLLUP_BENCH_FILTERS ?? "{}") as Record<string, string>) };
    const mode = process.env.ROLLUP_BENCH_MODE ?? "view";
    const client = upstreamClient({ apiKey: ADMIN_KEY, requestId: "bench" });
    // "off": the read as with ROLLUPS=off (the rows summed on the worker, nothing looked up); "warm-up": the fills only.
    // A view holding none of its days reads as ROLLUPS=off does (server/rollups/view.ts), and queues the closed ones.
    const held = mode === "view" ? await heldDays(client, { storeUrl: US_STORE, source: "conversion" }, filters, policy) : undefined;
    const cold = held !== undefined && held.fresh.size === 0;
    const off = mode === "off" || cold ? await offRead(client, filters) : undefined;
    const read = mode === "view" && !cold ? await readRange(client, US_STORE, filters, {}, policy, {}, held) : undefined;
    const wallMs = Math.round(performance.now() - started);
    const answerDelay = { p99: delay.percentile(99) / 1e6, max: delay.max / 1e6 };
    // The fills a view queues (or a warm-up's), run here one after another as the jobs would.
    const toFill =
      mode === "warm-up" ? daysOf(startDate, endDate) : cold ? daysOf(startDate, endDate).filter(held.closed) : (read?.toFill ?? []);
    await fillDays(client, { storeUrl: US_STORE, source: "conversion" }, toFill, policy);
    const savedMs = Math.round(performance.now() - started);
    delay.disable();
    const loopDelayMs = {
      answerP99: answerDelay.p99,
      answerMax: answerDelay.max,
      withWritesP99: delay.percentile(99) / 1e6,
      withWritesMax: delay.max / 1e6,
    };
    const result = read ? read.summary.result(2) : { totals: off ?? { rows: 0, revenue: 0 } };
    const [size] = await acrossStores(db, "benchmark: size of the deployment's rollups", (tx) =>
      tx.query<{ cells: number; tableBytes: number; estimatedBytes: number; days: number; dayChannels: number; productMonths: number }>(
        `select (select count(*)::int from rollup_cells) as cells, (select count(*)::int from rollup_days) as days,
           (select count(*)::int from rollup_day_channels) as "dayChannels", (select count(*)::int from rollup_product_months) as "productMonths",
           (pg_total_relation_size('rollup_day_cells') + pg_total_relation_size('rollup_days') + pg_total_relation_size('rollup_day_channels')
             + pg_total_relation_size('rollup_product_months'))::float8 as "tableBytes",
           (select coalesce(sum(bytes), 0)::float8 from rollup_days) as "estimatedBytes"`,
      ),
    );
    const restated = (await restatements(store, US_STORE)).length;
    console.log(
      JSON.stringify({
        wallMs,
        savedMs,
        rows: result.totals.rows,
        revenue: result.totals.revenue,
        daysFromRollups: read?.daysFromRollups ?? 0,
        daysFromUpstream: read?.daysFromUpstream ?? (cold ? daysOf(startDate, endDate).length : 0),
        upstreamRequests: read?.upstreamRequests ?? 0,
        timings: { lookMs: Math.round(read?.timings.lookMs ?? 0), summarizeMs: Math.round(read?.timings.summarizeMs ?? 0) },
        storedRows: read?.storedRows ?? { dayChannels: 0, productMonths: 0, cells: 0 },
        restated,
        ...size,
        loopDelayMs,
        // The whole process, worker threads included (kilobytes on Linux).
        peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      }),
    );
  } finally {
    await db.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
