import "server-only";
import { setTimeout as sleep } from "node:timers/promises";
import type { Db } from "@/server/db/database";
import type { UpstreamClient } from "@/server/upstream/client";
import { openProductRows } from "@/server/metrics/product-rows";
import { logger } from "@/server/observability/log";
import type { MetricsFilters } from "@/shared/schemas/product-metrics-view";
import { DayCells, dayWrite, RangeSummary, type CellFilter, type DayWrite } from "./cells";
import { evictFilterKeys } from "./bounds";
import { filterKeyOf, upstreamRowFilters } from "./filter-key";
import { buildMonthsQuietly, monthOf } from "./grain";
import { claimDays, deleteDays, releaseClaims, saveDays, storedDays, touchDays, type RollupScope } from "./repository";
import { summarizeStored, type StoredSummary } from "./summarize";

export interface RollupPolicy {
  db: Db;
  /** Today and this many days before it are always read from the upstream. */
  freshDays: number;
  /** A stored day older than this is read again. */
  revalidateSeconds: number;
  /** How long a claim on days being read holds before another instance may take them over. */
  claimHoldMs: number;
  /** How often an instance waiting on another's claim looks again. */
  pollMs?: number;
  /** Filtered keys kept per store (ROLLUP_FILTER_KEYS): after a filtered read, older keys' days are dropped. */
  filterKeys?: number;
  now?: () => Date;
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
  /**
   * Each day read from the upstream, whole (every cell, whatever the filter), once it is summed.
   * With this hook, every day's cells come back from the rows worker with its write (they are
   * otherwise kept only for days held before), so the caller holds them all until it lets go.
   */
  onDay?: (day: DayCells) => void;
}

interface RangeRead {
  summary: RangeSummary;
  /** When the oldest figures of the range were read from the upstream. */
  asOf: Date;
  daysFromRollups: number;
  daysFromUpstream: number;
  upstreamRequests: number;
  /** Days read again because their stored figures were stale: a restatement may have been found. */
  revalidated: number;
  /**
   * The writes of the days just read, after the answer: a view does not wait for them. Never
   * rejects: a failed write frees its days' claims and is logged.
   */
  saved: Promise<void>;
  /** Where a read's time went before its answer: looking up and claiming days, upstream reads included, then summing the held ones. */
  timings: { lookMs: number; summarizeMs: number };
  /** Rows the held days' sums read from each grain. */
  storedRows: StoredSummary["rowsRead"];
}

const DAY_MS = 86_400_000;
const dayNumber = (date: string) => Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY_MS);
const dayString = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** Filtered keys kept per store when the policy does not say (ROLLUP_FILTER_KEYS's default). */
const DEFAULT_FILTER_KEYS = 50;

/**
 * What the cells of a view's key answer: a channel and product IDs (the cells' grain). The
 * view's ad, country, device type, OS and browser filters choose the key (filter-key.ts), which
 * `readRange` takes from the filters itself. Null when the view has such filters and the
 * rollups keep no filtered keys (`filterKeys` 0): it reads the upstream as before.
 */
export function rollupFilterOf(filters: MetricsFilters, filterKeys = DEFAULT_FILTER_KEYS): CellFilter | null {
  if (filterKeys <= 0 && filterKeyOf(filters) !== "") return null;
  const productIds = filters.filterProductId
    ?.split(",")
    .map((id) => id.trim())
    .filter(Boolean);
  return { channel: filters.channel, productIds: productIds ? new Set(productIds) : undefined };
}

/**
 * The first store-local day that is never stored. A store's zone is at most 14 hours ahead of
 * UTC, so the latest "today" anywhere is UTC's date 14 hours from now; counting back from it
 * keeps every store's today and its last `freshDays` days out of the rollups.
 */
export function firstFreshDay(now: Date, freshDays: number): string {
  return dayString(dayNumber(new Date(now.getTime() + 14 * 3_600_000).toISOString().slice(0, 10)) - freshDays);
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

/**
 * Store-days saved together. With one write running and one queued, up to three weeks of a year's read
 * are held in memory: with a month per write, the year of the largest demo store peaked about 20 MB higher.
 */
const SAVE_EVERY_DAYS = 7;
/**
 * Writes queued behind the one running before reading waits for them: the days they hold stay in
 * memory until written, and a year of a large store read faster than written held over 500 MB.
 */
const QUEUED_WRITES = 1;

/**
 * Reads one run of days upstream, whole at the cells' grain (no channel or product filter; the
 * key's row filters only), summing and storing as it goes.
 */
async function readRun(
  upstream: UpstreamClient,
  scope: RollupScope,
  filters: MetricsFilters,
  run: string[],
  storable: (day: string) => boolean,
  into: {
    summary: RangeSummary;
    filter: CellFilter;
    policy: RollupPolicy;
    progress: (day: DayWrite) => void;
    /**
     * Whether a day's cells are kept with its write: a day held before, for the restatement its
     * write may record, or every day when the caller takes each day's cells (`onDay`).
     */
    keepCells: (day: string) => boolean;
    onOpened?: () => void;
    /** Writes run one after another, behind the reading; `queued` are the ones not known to be done. */
    writes: { chain: Promise<void>; queued: Promise<void>[] };
  },
): Promise<void> {
  const { db } = into.policy;
  const now = () => into.policy.now?.() ?? new Date();
  const query = {
    startDate: run[0]!,
    endDate: run.at(-1)!,
    ...(filters.dimension_source ? { dimension_source: filters.dimension_source } : {}),
    ...upstreamRowFilters(filters),
  };
  const rows = await openProductRows(upstream, scope.storeUrl, query);
  into.onOpened?.();
  const inRun = new Set(run);
  const closed = new Set<string>();
  const saved: string[] = [];
  let pending: DayWrite[] = [];
  let current: DayWrite | undefined;
  // Rows that do not arrive day by day inside the run cannot be stored as whole days.
  let disordered = false;

  const close = async (day: DayWrite) => {
    closed.add(day.day);
    into.progress(day);
    if (disordered || !storable(day.day)) return;
    pending.push(day);
    if (pending.length >= SAVE_EVERY_DAYS) await flush();
  };
  const flush = async () => {
    if (disordered || pending.length === 0) return;
    const batch = pending;
    pending = [];
    into.writes.chain = into.writes.chain.then(async () => {
      if (disordered) return;
      try {
        await saveDays(db, scope, batch, now());
        saved.push(...batch.map((day) => day.day));
      } catch (error) {
        logger.warn({ storeUrl: scope.storeUrl, err: error instanceof Error ? error.message : String(error) }, "Day rollups not saved");
        await releaseClaims(
          db,
          scope,
          batch.map((day) => day.day),
        ).catch(() => undefined);
        return;
      }
      // The months this write may have completed, each built once its days are committed.
      await buildMonthsQuietly(db, scope, [...new Set(batch.map((day) => monthOf(day.day)))]);
    });
    into.writes.queued.push(into.writes.chain);
    if (into.writes.queued.length > QUEUED_WRITES + 1) await into.writes.queued.shift();
  };

  // The rows are summed into day segments and into the view's summary off the event loop (every
  // segment counts in the answer); a new segment begins where the date changes.
  const summing = rows.summed({ mode: "days", filter: into.filter, summary: into.summary.state(), keepCells: run.filter(into.keepCells) });
  for await (const summed of summing) {
    for (const day of summed.days) {
      if (!inRun.has(day.day) || closed.has(day.day)) disordered = true;
      if (current) await close(current);
      current = day;
    }
    if (summed.summary) into.summary.load(summed.summary);
  }
  if (current) await close(current);
  // Days without a single row are days too: stored as empty.
  for (const day of run) if (!closed.has(day)) await close(dayWrite(new DayCells(day), into.keepCells(day)));
  await flush();
  if (disordered) {
    into.writes.chain = into.writes.chain.then(async () => {
      await deleteDays(db, scope, saved);
      await releaseClaims(db, scope, run);
    });
  }
}

/**
 * A range's figures from the rollups where they hold fresh days, and from the upstream for
 * the rest: missing, stale and recent days, read in as few requests as there are runs of
 * consecutive days. Days another instance is reading are waited for, not read twice.
 */
export async function readRange(
  upstream: UpstreamClient,
  storeUrl: string,
  filters: MetricsFilters,
  filter: CellFilter,
  policy: RollupPolicy,
  hooks: ReadHooks = {},
): Promise<RangeRead> {
  const started = performance.now();
  const { db } = policy;
  const now = () => policy.now?.() ?? new Date();
  const scope: RollupScope = { storeUrl, source: filters.dimension_source ?? "conversion", filterKey: filterKeyOf(filters) };
  const freshFrom = firstFreshDay(now(), policy.freshDays);
  const storable = (day: string) => day < freshFrom;
  const pending = new Set<string>();
  for (let day = dayNumber(filters.startDate); day <= dayNumber(filters.endDate); day++) pending.add(dayString(day));

  const fromUpstream = new RangeSummary();
  const fromRollups: string[] = [];
  let asOf = now();
  let upstreamRequests = 0;
  let daysRead = 0;
  let daysToRead = 0;
  let rowsRead = 0;
  let revalidated = 0;
  const writes = { chain: Promise.resolve(), queued: [] as Promise<void>[] };

  while (pending.size > 0) {
    const stored = await storedDays(db, scope, filters.startDate, filters.endDate);
    const staleBefore = now().getTime() - policy.revalidateSeconds * 1000;
    const held: string[] = [];
    for (const day of [...pending]) {
      const filledAt = stored.get(day);
      if (storable(day) && filledAt && filledAt.getTime() > staleBefore) {
        held.push(day);
        pending.delete(day);
        if (filledAt < asOf) asOf = filledAt;
      }
    }
    fromRollups.push(...held);
    if (pending.size === 0) break;
    // The held days wait while the others are read: marked used now, the least recently used
    // eviction (of the budget or of the filtered keys) takes other days first meanwhile.
    await touchDays(db, scope, held, now());
    const wanted = [...pending];
    const mine = await claimDays(db, scope, wanted.filter(storable), now(), policy.claimHoldMs);
    // Another instance may have stored some of them between the look above and the claim (its
    // write frees its claims): those are left for the next look, which finds them held.
    if (mine.size > 0) {
      const storedSince = await storedDays(db, scope, filters.startDate, filters.endDate);
      const nowHeld = [...mine].filter((day) => (storedSince.get(day)?.getTime() ?? 0) > staleBefore);
      for (const day of nowHeld) mine.delete(day);
      await releaseClaims(db, scope, nowHeld);
    }
    const toRead = wanted.filter((day) => !storable(day) || mine.has(day));
    revalidated += toRead.filter((day) => storable(day) && stored.has(day)).length;
    if (toRead.length === 0) {
      await sleep(policy.pollMs ?? 200);
      continue;
    }
    daysToRead += toRead.length;
    const progress = (day: DayWrite) => {
      daysRead++;
      rowsRead += day.rows;
      hooks.onProgress?.({ daysRead, daysToRead, rowsRead, day: day.day });
      if (hooks.onDay) {
        if (!day.cells) throw new Error(`The day ${day.day} came back from the rows without its cells.`);
        hooks.onDay(Object.assign(new DayCells(day.day, day.cells), { rows: day.rows, currency: day.currency }));
      }
    };
    try {
      for (const run of runsOf(toRead)) {
        upstreamRequests++;
        await readRun(upstream, scope, filters, run, storable, {
          summary: fromUpstream,
          filter,
          policy,
          progress,
          keepCells: (day) => hooks.onDay !== undefined || stored.has(day),
          onOpened: hooks.onOpened,
          writes,
        });
        for (const day of run) pending.delete(day);
      }
    } catch (error) {
      // The failed run's claims are freed once the writes queued before the failure are done.
      const unread = [...mine].filter((day) => pending.has(day));
      writes.chain = writes.chain.then(() => releaseClaims(db, scope, unread).catch(() => undefined));
      await writes.chain;
      throw error;
    }
  }

  const looked = performance.now();
  const { summary, wholeMonths, rowsRead: storedRows } = await summarizeStored(db, scope, fromRollups, filter, now());
  const summarizeMs = performance.now() - looked;
  // Whole months held without their product sums are built behind the answer, for the next view.
  if (wholeMonths.length > 0) writes.chain = writes.chain.then(() => buildMonthsQuietly(db, scope, wholeMonths, { missingOnly: true }));
  if (scope.filterKey !== "" && daysRead > 0) {
    // A new key may have been stored: the store keeps its most recently used filtered keys only
    // (after this view's own stored days were summed, so that it never loses them midway).
    writes.chain = writes.chain.then(() =>
      evictFilterKeys(db, storeUrl, policy.filterKeys ?? DEFAULT_FILTER_KEYS).then(
        () => undefined,
        (error: unknown) =>
          logger.warn({ storeUrl, err: error instanceof Error ? error.message : String(error) }, "Filtered day rollups not evicted"),
      ),
    );
  }
  for (const point of fromUpstream.series.values()) summary.addSeries(point);
  for (const product of fromUpstream.products.values()) summary.addProduct(product);
  if (fromUpstream.currency) summary.addCurrency(fromUpstream.currency.value, fromUpstream.currency.at);
  return {
    summary,
    asOf,
    daysFromRollups: fromRollups.length,
    daysFromUpstream: daysRead,
    upstreamRequests,
    revalidated,
    saved: writes.chain,
    timings: { lookMs: looked - started, summarizeMs },
    storedRows,
  };
}
