import "server-only";
import type { UpstreamClient } from "@/server/upstream/client";
import { biggestChanges } from "@/server/metrics/changes";
import { comparisonRange } from "@/shared/metrics/date-range";
import { currencyDecimals } from "@/shared/format";
import type { ComparisonMode, MetricsFilters, ProductMetricsView } from "@/shared/schemas/product-metrics-view";
import type { CellFilter } from "./range-summary";
import { daysOf, heldDays, readRange, type ReadHooks, type ReadProgress, type RollupPolicy } from "./reader";
import { restatements } from "./restatements";
import { queueFillsQuietly, viewing } from "./fill-job";

/** One line per restated day of the range, oldest day first: its latest restatement. */
async function restatedOf(policy: RollupPolicy, storeUrl: string, filters: MetricsFilters) {
  const source = filters.dimension_source ?? "conversion";
  const restated = (await restatements(policy.db, storeUrl, filters)).filter((change) => change.source === source);
  return [...new Map([...restated].reverse().map((change) => [change.day, change])).values()].map((change) => ({
    day: change.day,
    revenueChange: change.revenue.change,
    mostly: change.channels[0]?.key ?? null,
  }));
}

/**
 * The product-metrics view answered from the day rollups: the same figures as a full read,
 * with how fresh they are and the range's restated days. When the rollups hold none of its days,
 * it is `fullRead` itself (the read of ROLLUPS=off), with the same freshness and restated days.
 * Either way the closed days not held are queued for filling, behind the answer; the fills of this
 * instance wait while it reads (`viewing`).
 */
export function rollupView(...args: Parameters<typeof readView>): Promise<ProductMetricsView> {
  return viewing(() => readView(...args));
}

async function readView(
  upstream: UpstreamClient,
  storeUrl: string,
  filters: MetricsFilters,
  filter: CellFilter,
  compare: ComparisonMode | undefined,
  policy: RollupPolicy,
  hooks: ReadHooks,
  fullRead: () => Promise<ProductMetricsView>,
): Promise<ProductMetricsView> {
  const { onProgress } = hooks;
  const comparisonFilters = compare ? { ...filters, ...comparisonRange(filters, compare) } : undefined;
  const source = filters.dimension_source ?? "conversion";
  const scope = { storeUrl, source };
  const [mainHeld, previousHeld] = await Promise.all([
    heldDays(upstream, scope, filters, policy),
    comparisonFilters ? heldDays(upstream, scope, comparisonFilters, policy) : undefined,
  ]);
  if (mainHeld.fresh.size === 0 && (previousHeld?.fresh.size ?? 0) === 0) {
    const ranges = comparisonFilters ? [filters, comparisonFilters] : [filters];
    const view = await fullRead();
    queueFillsQuietly(
      upstream,
      storeUrl,
      source,
      ranges.flatMap((range) => daysOf(range.startDate, range.endDate).filter(mainHeld.closed)),
    );
    return {
      ...view,
      freshness: {
        asOf: (policy.now?.() ?? new Date()).toISOString(),
        daysFromRollups: 0,
        daysFromUpstream: ranges.reduce((sum, range) => sum + daysOf(range.startDate, range.endDate).length, 0),
        upstreamRequests: ranges.length,
      },
      restated: await restatedOf(policy, storeUrl, filters),
    };
  }
  // The two reads report their own progress; the page shows the sum of both.
  const done = new Map<string, ReadProgress>();
  const report = (which: string) => (progress: ReadProgress) => {
    done.set(which, progress);
    const all = [...done.values()];
    onProgress?.({
      daysRead: all.reduce((sum, p) => sum + p.daysRead, 0),
      daysToRead: all.reduce((sum, p) => sum + p.daysToRead, 0),
      rowsRead: all.reduce((sum, p) => sum + p.rowsRead, 0),
      day: progress.day,
    });
  };
  const [main, previous] = await Promise.all([
    readRange(upstream, storeUrl, filters, filter, policy, { onOpened: hooks.onOpened, onProgress: report("main") }, mainHeld),
    comparisonFilters
      ? readRange(
          upstream,
          storeUrl,
          comparisonFilters,
          filter,
          policy,
          { onOpened: hooks.onOpened, onProgress: report("previous") },
          previousHeld,
        )
      : undefined,
  ]);
  const currency = main.summary.currency?.value ?? previous?.summary.currency?.value ?? null;
  const decimals = currency ? currencyDecimals(currency) : 2;
  // The closed days read upstream are filled behind the answer, by a job (fill-job.ts); the view waits for nothing.
  queueFillsQuietly(upstream, storeUrl, source, [...main.toFill, ...(previous?.toFill ?? [])]);
  const asOf = previous && previous.asOf < main.asOf ? previous.asOf : main.asOf;
  return {
    startDate: filters.startDate,
    endDate: filters.endDate,
    currency,
    ...main.summary.result(decimals),
    ...(comparisonFilters && previous
      ? {
          comparison: {
            startDate: comparisonFilters.startDate,
            endDate: comparisonFilters.endDate,
            totals: previous.summary.result(decimals).totals,
            series: previous.summary.result(decimals).series,
            changes: biggestChanges(main.summary.revenues(), previous.summary.revenues(), decimals),
          },
        }
      : {}),
    freshness: {
      asOf: asOf.toISOString(),
      daysFromRollups: main.daysFromRollups + (previous?.daysFromRollups ?? 0),
      daysFromUpstream: main.daysFromUpstream + (previous?.daysFromUpstream ?? 0),
      upstreamRequests: main.upstreamRequests + (previous?.upstreamRequests ?? 0),
    },
    restated: await restatedOf(policy, storeUrl, filters),
  };
}
