import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storageBackends } from "@/test/databases";
import { openBefore } from "@/test/migrations";
import type { Db } from "@/server/db/database";
import { migrate } from "@/server/db/migrate";
import { withReach } from "@/server/db/reach";

/**
 * Migration 0021 on a database that already holds cells one row each: a day's cells become one
 * row of arrays, in the order of their first rows, read through the `rollup_cells` view as
 * before, under the same row-level security.
 */

const STORE = "shop.example";
const OTHER = "other.example";
const inStore = <T>(db: Db, store: string, fn: (tx: Db) => Promise<T>) => withReach(db, [store], fn);

describe.each(storageBackends())("a day's cells as one row (migration 0021) on %s", (backend) => {
  let db: Db;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await openBefore(backend, "0021"));
    for (const store of [STORE, OTHER]) {
      await inStore(db, store, (tx) =>
        tx.exec(`
          insert into rollup_days (store_url, source, filter_key, day, currency, row_count, orders, units, revenue, bytes, filled_at, used_at)
            values ('${store}', 'conversion', '', '2026-01-01', 'USD', 3, 3, 4, 40.25, 400, now(), now());
          insert into rollup_cells (store_url, source, filter_key, day, channel, product_id, product_name, product_sku, first_row,
              currency, currency_row, row_count, orders, units, revenue)
            values ('${store}', 'conversion', '', '2026-01-01', 'meta', 'prod_2', null, 'SKU "2"', 2, null, null, 1, 1, 1, 9.75),
                   ('${store}', 'conversion', '', '2026-01-01', 'google', 'prod_1', 'Mug, large', null, 0, 'USD', 0, 2, 2, 3, 30.5);
        `),
      );
    }
    await migrate(db);
  }, 60_000);
  afterAll(async () => {
    await db.close();
    await drop();
  });

  it("keeps every cell held, in the order of its first row, read through rollup_cells as before", async () => {
    const cells = await inStore(db, STORE, (tx) =>
      tx.query(
        `select store_url, filter_key, to_char(day, 'YYYY-MM-DD') as day, channel, product_id, product_name, product_sku, first_row,
           currency, currency_row, row_count, orders::float8 as orders, units::float8 as units, revenue::float8 as revenue
         from rollup_cells`,
      ),
    );
    expect(cells).toEqual([
      {
        store_url: STORE,
        filter_key: "",
        day: "2026-01-01",
        channel: "google",
        product_id: "prod_1",
        product_name: "Mug, large",
        product_sku: null,
        first_row: 0,
        currency: "USD",
        currency_row: 0,
        row_count: 2,
        orders: 2,
        units: 3,
        revenue: 30.5,
      },
      {
        store_url: STORE,
        filter_key: "",
        day: "2026-01-01",
        channel: "meta",
        product_id: "prod_2",
        product_name: null,
        product_sku: 'SKU "2"',
        first_row: 2,
        currency: null,
        currency_row: null,
        row_count: 1,
        orders: 1,
        units: 1,
        revenue: 9.75,
      },
    ]);
    expect(await db.query("select count(*)::int as days from rollup_day_cells")).toEqual([{ days: 2 }]);
  });

  it("keeps a day's cells as one row under the store's row-level security, read through the view too", async () => {
    const tables = await db.query<{ name: string; enabled: boolean; forced: boolean; policies: string }>(
      `select c.relname as name, c.relrowsecurity as enabled, c.relforcerowsecurity as forced,
         (select string_agg(policyname, ',' order by policyname) from pg_policies p where p.tablename = c.relname) as policies
       from pg_class c where c.relname = 'rollup_day_cells'`,
    );
    expect(tables).toEqual([{ name: "rollup_day_cells", enabled: true, forced: true, policies: "across_stores,store_reach" }]);
    const seen = await inStore(db, OTHER, (tx) => tx.query<{ store: string }>("select distinct store_url as store from rollup_cells"));
    expect(seen).toEqual([{ store: OTHER }]);
    expect(await withReach(db, [], (tx) => tx.query("select * from rollup_cells"))).toEqual([]);
  });

  it("forgets a day's cells with its day", async () => {
    await inStore(db, STORE, (tx) => tx.query("delete from rollup_days where store_url = $1", [STORE]));
    expect(await inStore(db, STORE, (tx) => tx.query("select * from rollup_cells"))).toEqual([]);
    expect(await inStore(db, OTHER, (tx) => tx.query("select count(*)::int as cells from rollup_cells"))).toEqual([{ cells: 2 }]);
  });
});
