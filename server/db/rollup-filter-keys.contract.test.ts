import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storageBackends } from "@/test/databases";
import { applyMigration, openBefore } from "@/test/migrations";
import type { Db } from "@/server/db/database";
import { withReach } from "@/server/db/reach";

/**
 * Migration 0017 on a database that already holds day rollups: the rows held become the
 * unfiltered key's (''), the keys of days, cells and claims take the filter key, and row-level
 * security stays as it was. The rows are written as the schema stood before 0017.
 */

const STORE = "shop.example";
const inStore = <T>(db: Db, fn: (tx: Db) => Promise<T>) => withReach(db, [STORE], fn);

describe.each(storageBackends())("the rollup filter keys of migration 0017 on %s", (backend) => {
  let db: Db;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await openBefore(backend, "0017"));
    await inStore(db, (tx) =>
      tx.exec(`
        insert into rollup_days (store_url, source, day, currency, row_count, orders, units, revenue, bytes, filled_at, used_at)
          values ('${STORE}', 'conversion', '2026-01-01', 'USD', 2, 2, 3, 30.5, 400, now(), now());
        insert into rollup_cells (store_url, source, day, channel, product_id, first_row, row_count, orders, units, revenue)
          values ('${STORE}', 'conversion', '2026-01-01', 'google', 'prod_1', 0, 2, 2, 3, 30.5);
        insert into rollup_claims (store_url, source, day, claimed_until) values ('${STORE}', 'conversion', '2026-01-02', now());
      `),
    );
    // 0017 alone: the later migrations change the cells' table (0021 keeps a day's cells as one row).
    await applyMigration(db, "0017_rollup_filter_keys.sql");
  }, 60_000);
  afterAll(async () => {
    await db.close();
    await drop();
  });

  it("makes the rows held the unfiltered key's", async () => {
    for (const table of ["rollup_days", "rollup_cells", "rollup_claims"]) {
      expect(
        await inStore(db, (tx) => tx.query(`select filter_key as key, to_char(day, 'YYYY-MM-DD') as day from ${table}`)),
        table,
      ).toEqual([{ key: "", day: table === "rollup_claims" ? "2026-01-02" : "2026-01-01" }]);
    }
  });

  it("keys days, cells and claims by store, attribution, filter key and day, and the cells' day by its key", async () => {
    const keys = await db.query<{ name: string; columns: string }>(
      `select c.conrelid::regclass::text as name, string_agg(a.attname, ',' order by k.n) as columns
       from pg_constraint c cross join lateral unnest(c.conkey) with ordinality as k(attnum, n)
       join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.attnum
       where c.contype in ('p', 'f') and c.conrelid::regclass::text in ('rollup_days', 'rollup_cells', 'rollup_claims')
       group by c.oid, c.conrelid, c.contype order by 1, c.contype desc`,
    );
    expect(keys).toEqual([
      { name: "rollup_cells", columns: "store_url,source,filter_key,day,channel,product_id" },
      { name: "rollup_cells", columns: "store_url,source,filter_key,day" },
      { name: "rollup_claims", columns: "store_url,source,filter_key,day" },
      { name: "rollup_days", columns: "store_url,source,filter_key,day" },
    ]);
  });

  it("holds the same store-day under two keys, and forgets one key's day with its cells only", async () => {
    await inStore(db, (tx) =>
      tx.exec(`
        insert into rollup_days (store_url, source, filter_key, day, currency, row_count, orders, units, revenue, bytes, filled_at, used_at)
          values ('${STORE}', 'conversion', 'country=US', '2026-01-01', 'USD', 1, 1, 1, 10, 300, now(), now());
        insert into rollup_cells (store_url, source, filter_key, day, channel, product_id, first_row, row_count, orders, units, revenue)
          values ('${STORE}', 'conversion', 'country=US', '2026-01-01', 'google', 'prod_1', 0, 1, 1, 1, 10);
        insert into rollup_claims (store_url, source, filter_key, day, claimed_until)
          values ('${STORE}', 'conversion', 'country=US', '2026-01-02', now());
      `),
    );
    // A cell needs its own key's day.
    await expect(
      inStore(db, (tx) =>
        tx.query(
          `insert into rollup_cells (store_url, source, filter_key, day, channel, product_id, first_row, row_count, orders, units, revenue)
           values ($1, 'conversion', 'country=CA', '2026-01-01', 'google', 'prod_1', 0, 1, 1, 1, 10)`,
          [STORE],
        ),
      ),
    ).rejects.toThrow(/foreign key/);
    await inStore(db, (tx) => tx.query("delete from rollup_days where filter_key = 'country=US'"));
    const cells = await inStore(db, (tx) =>
      tx.query<{ key: string; revenue: string }>("select filter_key as key, revenue from rollup_cells"),
    );
    expect(cells.map((cell) => [cell.key, Number(cell.revenue)])).toEqual([["", 30.5]]);
  });

  it("leaves row-level security as it was: enabled, forced, the same two policies, no row for another store", async () => {
    const tables = await db.query<{ name: string; enabled: boolean; forced: boolean; policies: string }>(
      `select c.relname as name, c.relrowsecurity as enabled, c.relforcerowsecurity as forced,
         (select string_agg(policyname, ',' order by policyname) from pg_policies p where p.tablename = c.relname) as policies
       from pg_class c where c.relname in ('rollup_days', 'rollup_cells', 'rollup_claims') order by 1`,
    );
    expect(tables).toEqual(
      ["rollup_cells", "rollup_claims", "rollup_days"].map((name) => ({
        name,
        enabled: true,
        forced: true,
        policies: "across_stores,store_reach",
      })),
    );
    expect(await withReach(db, ["elsewhere.example"], (tx) => tx.query("select * from rollup_days"))).toEqual([]);
  });
});
