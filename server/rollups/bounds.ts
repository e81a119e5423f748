import "server-only";
import type { Db } from "@/server/db/database";
import { acrossStores } from "@/server/db/reach";

/**
 * The rollups' bounds: the deployment's budget and each store's filtered keys. Only the
 * deployment-wide eviction and usage run across stores, each for a stated reason.
 */

/**
 * Drops the least recently used store-months (per attribution and key) until the rollups fit the
 * budget; returns how many days went. Run by the daily retention purge, in its transaction across
 * stores (never on a read): a month's use is its row of rollup_month_use (written by views at
 * most hourly), or its days' filling when no view used it yet.
 */
export async function evictOverBudget(tx: Db, budgetBytes: number): Promise<number> {
  const rows = await tx.query<{ day: string }>(
    `with months as (
       select store_url, source, filter_key, date_trunc('month', day)::date as month, sum(bytes) as bytes, max(used_at) as filled
       from rollup_days group by 1, 2, 3, 4
     ), ranked as (
       select m.store_url, m.source, m.filter_key, m.month,
         sum(m.bytes) over (order by greatest(u.used_at, m.filled) desc, m.store_url, m.source, m.filter_key, m.month) as running
       from months m left join rollup_month_use u
         on u.store_url = m.store_url and u.source = m.source and u.filter_key = m.filter_key and u.month = m.month
     )
     delete from rollup_days d using ranked r
     where d.store_url = r.store_url and d.source = r.source and d.filter_key = r.filter_key
       and d.day >= r.month and d.day < r.month + interval '1 month' and r.running > $1
     returning to_char(d.day, 'YYYY-MM-DD') as day`,
    [budgetBytes],
  );
  return rows.length;
}

/** What the rollups of the whole deployment hold: store-days and their estimated bytes. */
export async function rollupUsage(db: Db): Promise<{ days: number; bytes: number }> {
  const [row] = await acrossStores(db, "day rollups: the deployment's usage against its budget", (tx) =>
    tx.query<{ days: number; bytes: number }>("select count(*)::int as days, coalesce(sum(bytes), 0)::float8 as bytes from rollup_days"),
  );
  return row ?? { days: 0, bytes: 0 };
}
