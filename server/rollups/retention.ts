import "server-only";
import type { Db } from "@/server/db/database";

const DAY_MS = 86_400_000;

/**
 * The distinct stores of a table whose primary key begins with `store_url`, one index probe per
 * store (a skip scan): the cost grows with the stores, not with their days.
 */
const storesIn = (table: string) =>
  `(with recursive stores (store_url) as (
      (select store_url from ${table} order by store_url limit 1)
      union all
      select (select t.store_url from ${table} t where t.store_url > s.store_url order by t.store_url limit 1)
      from stores s where s.store_url is not null
    ) select store_url from stores where store_url is not null)`;

/**
 * A store's rollups outlive its keys by `retentionDays` at most. Run by the daily retention purge
 * (server/maintenance/retention.ts), across stores: a store with rollups that no key reaches (no
 * key of a session not signed out, whose row goes a day after it ends, and no grant still open) is
 * noted with the time it was first seen so; a key that reaches it again clears the note; a store
 * noted `retentionDays` ago or more loses its rollups. Returns the stores purged.
 */
export async function purgeUnreachedStores(tx: Db, now: Date, retentionDays: number): Promise<number> {
  const reached = `select unnest(k.store_urls) from session_keys k join sessions s on s.id = k.session_id
                   where k.dropped_at is null and s.revoked_at is null
                   union select store_url from grants where ended_at is null and expires_at > $1`;
  await tx.query(`delete from rollup_stores_unreached where store_url in (${reached})`, [now]);
  await tx.query(
    `insert into rollup_stores_unreached (store_url, since)
     select held.store_url, $1 from (${storesIn("rollup_days")} union ${storesIn("rollup_product_months")}) held
     where held.store_url not in (${reached})
     on conflict (store_url) do nothing`,
    [now],
  );
  const gone = await tx.query<{ storeUrl: string }>(
    `delete from rollup_stores_unreached where since <= $1 returning store_url as "storeUrl"`,
    [new Date(now.getTime() - retentionDays * DAY_MS)],
  );
  const stores = gone.map((row) => row.storeUrl);
  if (stores.length === 0) return 0;
  // A day's cells and channels go with it (on delete cascade).
  for (const table of ["rollup_days", "rollup_product_months", "rollup_claims", "rollup_month_use"])
    await tx.query(`delete from ${table} where store_url = any($1::text[])`, [stores]);
  return stores.length;
}
