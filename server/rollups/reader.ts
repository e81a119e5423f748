import "server-only";
import type { Db } from "@/server/db/database";
import type { UpstreamClient } from "@/server/upstream/client";
import { openProductRows } from "@/server/metrics/product-rows";
import type { MetricsFilters } from "@/shared/schemas/product-metrics-view";
import { DayCells, type DayWrite } from "./cells";
import { RangeSummary, type CellFilter } from "./range-summary";
import { upstreamRowFilters } from "./filter-key";
import { markMonthsUsed, storedDays, type RollupScope } from "./repository";
import { summarizeStored, type StoredSummary } from "./summarize";
import { firstFreshDay, storeZone } from "./zone";

export interface RollupPolicy {
  db: Db;
  /** Today and this many days before it are always read from the upstream. */
  freshDays: number;
  /** A stored day older than this is read again. */
  revalidateSeconds: number;
  now?: () => Date;
  /** The store's zone, when the caller knows it; otherwise read from its profile (zone.ts). */
  timeZone?: string;
}

export interface ReadProgress {
  daysRead: number;
  daysToRead: number;
  /** Rows read from the upstream so far. */
  rowsRead: number;
  /** The store-local day being read. */
  day: string;
}

export interface ReadHooks {
  /** Called when an upstream read has answered 200: from then on, its errors arrive mid-stream. */
  onOpened?: () => void;
  onProgress?: (progress: ReadProgress) => void;
  /** Each day read from the upstream, whole (every cell, whatever the filter), once it is summed. */
  onDay?: (day: DayCells) => void;
}

interface RangeRead {
  summary: RangeSummary;
  /** When the oldest figures of the range were read from the upstream. */
  asOf: Date;
  daysFromRollups: number;
  daysFromUpstream: number;
  upstreamRequests: number;
  /** The closed days of the range the rollups do not hold fresh: what a fill should store (fill.ts). */
  toFill: string[];
  /** Where a read's time went before its answer: looking up the held days, then summing them. */
  timings: { lookMs: number; summarizeMs: number };
  /** Rows the held days' sums read from each grain. */
  storedRows: StoredSummary["rowsRead"];
}

const DAY_MS = 86_400_000;
const dayNumber = (date: string) => Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY_MS);
const dayString = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** Every day from `startDate` to `endDate`. */
export function daysOf(startDate: string, endDate: string): string[] {
  const days: string[] = [];
  for (let day = dayNumber(startDate); day <= dayNumber(endDate); day++) days.push(dayString(day));
  return days;
}

/**
 * What the cells answer of a view: a channel and product IDs (the cells' grain). Null when the view
 * filters rows by what only the upstream applies (ad, country, device type, OS, browser): such a
 * view reads the upstream, as with ROLLUPS=off.
 */
export function rollupFilterOf(filters: MetricsFilters): CellFilter | null {
  if (Object.keys(upstreamRowFilters(filters)).length > 0) return null;
  const productIds = filters.filterProductId
    ?.split(",")
    .map((id) => id.trim())
    .filter(Boolean);
  return { channel: filters.channel, productIds: productIds ? new Set(productIds) : undefined };
}

/** Consecutive days grouped into runs, so each run is one upstream request. */
export function runsOf(days: string[]): string[][] {
  const runs: string[][] = [];
  for (const day of [...days].sort()) {
    const last = runs.at(-1);
    if (last && dayNumber(day) === dayNumber(last.at(-1)!) + 1) last.push(day);
    else runs.push([day]);
  }
  return runs;
}

interface HeldDays {
  closed: (day: string) => boolean;
  fresh: Map<string, Date>;
  stale: Set<string>;
}

/** The closed days of a range (before the store's fresh days) and which of them the rollups hold fresh, with when each was read. */
export async function heldDays(
  upstream: UpstreamClient,
  scope: RollupScope,
  range: { startDate: string; endDate: string },
  policy: RollupPolicy,
): Promise<HeldDays> {
  const now = policy.now?.() ?? new Date();
  const [timeZone, stored] = await Promise.all([
    policy.timeZone ?? storeZone(upstream, scope.storeUrl),
    storedDays(policy.db, scope, range.startDate, range.endDate),
  ]);
  const freshFrom = firstFreshDay(now, policy.freshDays, timeZone);
  const closed = (day: string) => day < freshFrom;
  const staleBefore = now.getTime() - policy.revalidateSeconds * 1000;
  const fresh = new Map<string, Date>();
  const stale = new Set<string>();
  for (const [day, filledAt] of stored) {
    if (!closed(day)) continue;
    if (filledAt.getTime() > staleBefore) fresh.set(day, filledAt);
    else stale.add(day);
  }
  return { closed, fresh, stale };
}

/**
 * Streams one run of days from the upstream (the view's row filters only; whole at the cells'
 * grain), summing its rows into `summary` within `filter`. Nothing is written: with `onDay`, each
 * day's cells are handed over; otherwise only the summary keeps them.
 */
export async function streamRun(
  upstream: UpstreamClient,
  storeUrl: string,
  filters: MetricsFilters,
  run: string[],
  into: {
    summary: RangeSummary;
    filter: CellFilter;
    onDay?: (day: DayWrite) => void;
    onOpened?: () => void;
    /** The days whose cells come with them (`onDay`). */
    keepCells?: string[];
    /** Each day comes ready to write (a fill's). */
    write?: boolean;
  },
): Promise<void> {
  const query = {
    startDate: run[0]!,
    endDate: run.at(-1)!,
    ...(filters.dimension_source ? { dimension_source: filters.dimension_source } : {}),
    ...upstreamRowFilters(filters),
  };
  const rows = await openProductRows(upstream, storeUrl, query);
  into.onOpened?.();
  const summing = rows.summed({
    mode: "days",
    filter: into.filter,
    summary: into.summary.state(),
    keepCells: into.keepCells ?? [],
    write: into.write ?? false,
  });
  for await (const summed of summing) {
    for (const day of summed.days) into.onDay?.(day);
    if (summed.summary) into.summary.load(summed.summary);
  }
}

/**
 * A range's figures: the days the rollups hold fresh from the database (summed in one snapshot
 * that also counts them), every other day streamed from the upstream as with ROLLUPS=off, one
 * request per run of consecutive days. Nothing is written but the held months' use (a few rows,
 * at most hourly); the closed days not held are returned for a fill to store (fill.ts).
 */
export async function readRange(
  upstream: UpstreamClient,
  storeUrl: string,
  filters: MetricsFilters,
  filter: CellFilter,
  policy: RollupPolicy,
  hooks: ReadHooks = {},
  /** The range's held days, when the caller looked them up already. */
  known?: HeldDays,
): Promise<RangeRead> {
  const started = performance.now();
  const now = () => policy.now?.() ?? new Date();
  const scope: RollupScope = { storeUrl, source: filters.dimension_source ?? "conversion" };
  const days = daysOf(filters.startDate, filters.endDate);
  const { closed, fresh } = known ?? (await heldDays(upstream, scope, filters, policy));
  const looked = performance.now();

  const fromUpstream = new RangeSummary();
  const toRead: string[] = [];
  let daysRead = 0;
  let rowsRead = 0;
  let upstreamRequests = 0;
  const stream = async (more: string[]) => {
    toRead.push(...more);
    for (const run of runsOf(more)) {
      upstreamRequests++;
      await streamRun(upstream, storeUrl, filters, run, {
        summary: fromUpstream,
        filter,
        onOpened: hooks.onOpened,
        keepCells: hooks.onDay ? run : [],
        onDay: (day) => {
          daysRead++;
          rowsRead += day.rows;
          hooks.onProgress?.({ daysRead, daysToRead: toRead.length, rowsRead, day: day.day });
          if (!hooks.onDay) return;
          if (!day.cells) throw new Error(`The day ${day.day} came back from the rows without its cells.`);
          hooks.onDay(Object.assign(new DayCells(day.day, day.cells), { rows: day.rows, currency: day.currency }));
        },
      });
    }
  };
  // The database sums the held days while the upstream streams the others; a held day found gone
  // meanwhile (evicted, restated, purged) is read upstream after.
  const [stored] = await Promise.all([
    summarizeStored(policy.db, scope, [...fresh.keys()], filter).then((sums) => ({ ...sums, ms: performance.now() - looked })),
    stream(days.filter((day) => !fresh.has(day))),
  ]);
  const { summary, missing, rowsRead: storedRows } = stored;
  const held = [...fresh.keys()].filter((day) => !missing.includes(day));
  await Promise.all([stream(missing), markMonthsUsed(policy.db, scope, held, now())]);

  for (const point of fromUpstream.series.values()) summary.addSeries(point);
  for (const product of fromUpstream.products.values()) summary.addProduct(product);
  if (fromUpstream.currency) summary.addCurrency(fromUpstream.currency.value, fromUpstream.currency.at);
  let asOf = now();
  for (const day of held) if (fresh.get(day)! < asOf) asOf = fresh.get(day)!;
  return {
    summary,
    asOf,
    daysFromRollups: held.length,
    daysFromUpstream: toRead.length,
    upstreamRequests,
    toFill: toRead.filter(closed),
    timings: { lookMs: looked - started, summarizeMs: stored.ms },
    storedRows,
  };
}
