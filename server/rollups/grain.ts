import "server-only";
import type { Db } from "@/server/db/database";
import { logger } from "@/server/observability/log";
import type { RollupScope } from "./repository";

/**
 * The coarser grain next to the cells (migration 0020): a held day's cells summed by channel
 * (`rollup_day_channels`, written with the cells), and a calendar month's cells summed by product
 * (`rollup_product_months`), built only when every day of the month is held under the key and
 * dropped by a trigger on `rollup_days` whenever one of them changes.
 */

const keyOf = (scope: RollupScope) => scope.filterKey ?? "";

/** A row's place in a range as one number: days since 1970 × PLACE_BASE + its index in its day. */
export const PLACE_BASE = 1_000_000_000;

/** The first day of a day's month, `YYYY-MM-01`. */
export const monthOf = (day: string) => `${day.slice(0, 7)}-01`;

/** Days in the month starting `month` (`YYYY-MM-01`). */
export function daysInMonth(month: string): number {
  const [year, number] = [Number(month.slice(0, 4)), Number(month.slice(5, 7))];
  return new Date(Date.UTC(year, number, 0)).getUTCDate();
}

/** The months every day of which is among `days`. */
export function fullMonths(days: Iterable<string>): string[] {
  const counts = new Map<string, number>();
  for (const day of new Set(days)) counts.set(monthOf(day), (counts.get(monthOf(day)) ?? 0) + 1);
  return [...counts].filter(([month, count]) => count === daysInMonth(month)).map(([month]) => month);
}

/** Sums the just-written cells of `days` by channel, in the same transaction as the cells. */
export async function writeDayChannels(tx: Db, scope: RollupScope, days: string[]): Promise<void> {
  if (days.length === 0) return;
  await tx.query(
    `insert into rollup_day_channels (store_url, source, filter_key, day, channel, row_count, orders, units, revenue)
     select store_url, source, filter_key, day, channel, sum(row_count), sum(orders), sum(units), sum(revenue)
     from rollup_cells where store_url = $1 and source = $2 and filter_key = $3 and day between $5 and $6 and day = any($4::date[])
     group by store_url, source, filter_key, day, channel`,
    // The bounds keep the scan to the days written where the planner has no statistics yet.
    [scope.storeUrl, scope.source, keyOf(scope), days, days.reduce((a, b) => (a < b ? a : b)), days.reduce((a, b) => (a > b ? a : b))],
  );
}

/**
 * Builds the month's product sums when every day of it is held, each month in a transaction of
 * its own, after the writes that held its days have committed (never inside one: two writers
 * each locking the other's days would deadlock). The month's days are locked `for key share`
 * first, so no day can be deleted (a rewrite deletes it first) while its cells are summed; a day
 * being rewritten right then is skipped (`skip locked`), so the month counts short and is left for
 * a later view: the build never waits on a writer. Key share, not share: a view marking its days
 * used (touchDays, an update of `used_at` alone) does not conflict with it, so a build next to a
 * view still counts every day. Returns the months built.
 */
export async function buildMonths(db: Db, scope: RollupScope, months: string[]): Promise<string[]> {
  const built: string[] = [];
  for (const month of months) {
    const done = await db.transaction(async (tx) => {
      const params = [scope.storeUrl, scope.source, keyOf(scope), month];
      const [held] = await tx.query<{ days: number }>(
        `select count(*)::int as days from (
           select day from rollup_days where store_url = $1 and source = $2 and filter_key = $3
             and day >= $4::date and day < ($4::date + interval '1 month') order by day for key share skip locked
         ) as held`,
        params,
      );
      if (held?.days !== daysInMonth(month)) return false;
      await tx.query(
        `insert into rollup_product_months (store_url, source, filter_key, month, product_id, row_count, orders, units, revenue,
           first_key, cells, names, min_name, max_name, skus, min_sku, max_sku)
         select $1, $2, $3, $4::date, product_id, sum(row_count), sum(orders), sum(units), sum(revenue),
           min((day - date '1970-01-01')::bigint * ${PLACE_BASE} + first_row), count(*), count(product_name), min(product_name),
           max(product_name), count(product_sku), min(product_sku), max(product_sku)
         from rollup_cells where store_url = $1 and source = $2 and filter_key = $3
           and day >= $4::date and day < ($4::date + interval '1 month')
         group by product_id
         on conflict do nothing`,
        params,
      );
      return true;
    });
    if (done) built.push(month);
  }
  return built;
}

/** `buildMonths` behind an answer (`missingOnly`: of the months that have no row yet): a failure is logged, never thrown. */
export async function buildMonthsQuietly(
  db: Db,
  scope: RollupScope,
  months: string[],
  options: { missingOnly?: boolean } = {},
): Promise<void> {
  if (months.length === 0) return;
  try {
    const missing = options.missingOnly
      ? (
          await db.query<{ month: string }>(
            `select to_char(m, 'YYYY-MM-DD') as month from unnest($4::date[]) as m
             where not exists (select 1 from rollup_product_months p where p.store_url = $1 and p.source = $2 and p.filter_key = $3 and p.month = m)`,
            [scope.storeUrl, scope.source, keyOf(scope), months],
          )
        ).map((row) => row.month)
      : months;
    await buildMonths(db, scope, missing);
  } catch (error) {
    logger.warn(
      { storeUrl: scope.storeUrl, err: error instanceof Error ? error.message : String(error) },
      "Monthly product rollups not built",
    );
  }
}
