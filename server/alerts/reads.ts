import "server-only";
import type { MetricsFilters } from "@/shared/schemas/product-metrics-view";
import { storeProfileSchema } from "@/shared/schemas/store";
import { openProductRows } from "@/server/metrics/product-rows";
import type { UpstreamClient } from "@/server/upstream/client";
import { settings } from "@/server/config/settings";
import type { Db } from "@/server/db/database";
import { add, addTo, periodOf, readDays, type DaysRead, type PeriodSums } from "@/server/rollups/day-sums";

export type { PeriodSums };
import { upstreamRowFilters } from "@/server/rollups/filter-key";
import { rollupFilterOf, type RollupPolicy } from "@/server/rollups/reader";

/** A read's sums by store-local day ("2026-11-23") and by hour ("2026-11-23 14:00"). */
export interface Summary {
  currency: string | null;
  /** Product names as the rows carry them, by product ID. */
  productNames: Map<string, string>;
  periods: Map<string, PeriodSums>;
}

/** Streams one products read into day and hour sums; the rows themselves are never held. */
async function summarize(upstream: UpstreamClient, storeUrl: string, filters: MetricsFilters): Promise<Summary> {
  const rows = await openProductRows(upstream, storeUrl, filters);
  const summary: Summary = { currency: null, productNames: new Map(), periods: new Map() };
  for await (const batch of rows.batches) {
    for (const row of batch) {
      summary.currency ??= row.currency ?? null;
      if (row.product_name) summary.productNames.set(row.product_id, row.product_name);
      const time = (row as { time?: unknown }).time;
      const hour = typeof time === "string" && /^\d{2}/.test(time) ? time.slice(0, 2) : "00";
      for (const key of [row.date, `${row.date} ${hour}:00`]) {
        const period = periodOf(summary.periods, key);
        add(period.channels, row.channel, row);
        add(period.products, row.product_id, row);
        addTo(period.total, row);
      }
    }
  }
  return summary;
}

/** The day rollups an alert check reads daily sums through; null when they are off (settings().rollups). */
export type AlertRollups = (RollupPolicy & { budgetBytes?: number }) | null;

/** The rollups as the settings have them, on `db` (whose reach holds the stores checked). */
export function alertRollups(db: Db): AlertRollups {
  const { enabled, ...policy } = settings().rollups;
  return enabled ? { db, ...policy } : null;
}

/** A read through the rollups as a summary of days (no hours: the cells keep none), within the filters' channel and products. */
async function daySummary(days: DaysRead, filters: MetricsFilters): Promise<Summary> {
  const sums = await days.sums(rollupFilterOf(filters)!);
  return { currency: days.currency, productNames: days.productNames, periods: sums };
}

/**
 * The reads of one run of alert checks: identical reads (same key, organization, store and
 * query) are made once and shared by every rule that needs them, so 200 rules over a few
 * stores and channels cost a few upstream requests, not 200. Lives only for one run, so a
 * later run reads fresh data.
 */
export class RunReads {
  private readonly summaries = new Map<string, Promise<Summary>>();
  private readonly profiles = new Map<string, Promise<{ timezone: string; currency: string }>>();
  private readonly days = new Map<string, Promise<DaysRead>>();

  constructor(private readonly rollups: AlertRollups = null) {}

  /**
   * Sums by day only. With the rollups on and filters they answer (channel, products, the
   * attribution), one read of the store's days through them serves every such rule of the run,
   * each summing its own channel and products; otherwise the upstream's rows, as `summary`.
   */
  daySummary(upstream: UpstreamClient, storeUrl: string, filters: MetricsFilters): Promise<Summary> {
    if (!this.rollups || !rollupFilterOf(filters)) return this.summary(upstream, storeUrl, filters);
    const { startDate, endDate, dimension_source } = filters;
    // The row filters only the upstream applies choose the rollups' key; channel and products are summed from its cells.
    const range = { startDate, endDate, ...(dimension_source ? { dimension_source } : {}), ...upstreamRowFilters(filters) };
    const key = JSON.stringify([upstream.keyIdentity, upstream.organizationId ?? null, storeUrl, range]);
    let days = this.days.get(key);
    if (!days) this.days.set(key, (days = readDays(upstream, storeUrl, range, this.rollups)));
    const summaryKey = JSON.stringify(["days", key, filters]);
    let found = this.summaries.get(summaryKey);
    if (!found) this.summaries.set(summaryKey, (found = days.then((read) => daySummary(read, filters))));
    return found;
  }

  summary(upstream: UpstreamClient, storeUrl: string, filters: MetricsFilters): Promise<Summary> {
    const key = JSON.stringify([upstream.keyIdentity, upstream.organizationId ?? null, storeUrl, filters]);
    let found = this.summaries.get(key);
    if (!found) this.summaries.set(key, (found = summarize(upstream, storeUrl, filters)));
    return found;
  }

  profile(upstream: UpstreamClient, storeUrl: string): Promise<{ timezone: string; currency: string }> {
    const key = JSON.stringify([upstream.keyIdentity, upstream.organizationId ?? null, storeUrl]);
    let found = this.profiles.get(key);
    if (!found) {
      found = upstream.json("store-profile", storeProfileSchema, { params: { storeUrl } }).then(({ data }) => data);
      this.profiles.set(key, found);
    }
    return found;
  }
}
