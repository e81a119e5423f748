import "server-only";
import type { Db } from "@/server/db/database";
import { acrossStores } from "@/server/db/reach";

/**
 * The rollups' bounds: the deployment's budget and each store's filtered keys. Only the
 * deployment-wide eviction and usage run across stores, each for a stated reason.
 */

/** Drops the least recently used store-days of every store until the rollups fit the budget; returns how many went. */
export async function evictOverBudget(db: Db, budgetBytes: number): Promise<number> {
  const why = "day rollups: least recently used store-days evicted to fit the deployment's budget";
  const rows = await acrossStores(db, why, (tx) =>
    tx.query<{ day: string }>(
      `with ranked as (
       select store_url, source, filter_key, day,
         sum(bytes) over (order by used_at desc, store_url, source, filter_key, day) as running from rollup_days
     )
     delete from rollup_days d using ranked r
     where d.store_url = r.store_url and d.source = r.source and d.filter_key = r.filter_key and d.day = r.day and r.running > $1
     returning to_char(d.day, 'YYYY-MM-DD') as day`,
      [budgetBytes],
    ),
  );
  return rows.length;
}

/**
 * Keeps the store's `keep` most recently used filtered keys (by the latest use of any of their
 * days, either attribution) and drops every day of the older ones; the unfiltered key is not
 * counted. Returns the keys dropped.
 */
export async function evictFilterKeys(db: Db, storeUrl: string, keep: number): Promise<string[]> {
  const rows = await db.query<{ key: string }>(
    `with keys as (
       select filter_key, max(used_at) as used from rollup_days where store_url = $1 and filter_key <> '' group by filter_key
     ), old as (
       select filter_key from keys order by used desc, filter_key offset $2
     )
     delete from rollup_days d using old where d.store_url = $1 and d.filter_key = old.filter_key
     returning d.filter_key as key`,
    [storeUrl, keep],
  );
  return [...new Set(rows.map((row) => row.key))];
}

/** What the rollups of the whole deployment hold: store-days and their estimated bytes. */
export async function rollupUsage(db: Db): Promise<{ days: number; bytes: number }> {
  const [row] = await acrossStores(db, "day rollups: the deployment's usage against its budget", (tx) =>
    tx.query<{ days: number; bytes: number }>("select count(*)::int as days, coalesce(sum(bytes), 0)::float8 as bytes from rollup_days"),
  );
  return row ?? { days: 0, bytes: 0 };
}
