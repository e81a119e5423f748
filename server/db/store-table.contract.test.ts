import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openForSuite, storageBackends, unique } from "@/test/databases";
import type { Db } from "@/server/db/database";
import { acrossStores, ownerOf, withReach } from "@/server/db/reach";

/** A new store table, as a later migration makes one: created, then `dashboard_store_table` (migration 0029) names it. */
describe.each(storageBackends())("a store table made by dashboard_store_table on %s", (backend) => {
  let db: Db;
  let close: () => Promise<void>;
  const [ours, theirs] = [unique("ours.example"), unique("theirs.example")];

  beforeAll(async () => {
    ({ db, close } = await openForSuite(backend));
    await ownerOf(db).query("create table store_table_probe (store_url text not null, note text not null)");
    await ownerOf(db).query("select dashboard_store_table('store_table_probe')");
    await withReach(db, [ours], (tx) => tx.query("insert into store_table_probe values ($1, 'ours')", [ours]));
    await withReach(db, [theirs], (tx) => tx.query("insert into store_table_probe values ($1, 'theirs')", [theirs]));
  });
  afterAll(() => close());

  it("shows the application only the rows of its reach, and refuses a row outside it", async () => {
    const rows = await withReach(db, [ours], (tx) => tx.query<{ note: string }>("select note from store_table_probe"));
    expect(rows.map((row) => row.note)).toEqual(["ours"]);
    await expect(withReach(db, [ours], (tx) => tx.query("insert into store_table_probe values ($1, 'x')", [theirs]))).rejects.toThrow(
      /row-level security/,
    );
    expect(await withReach(db, [], (tx) => tx.query("select note from store_table_probe"))).toEqual([]);
  });

  it("lets the maintenance path see across stores, forces the policy on the owner, and refuses the store ''", async () => {
    const all = await acrossStores(db, "a test of dashboard_store_table", (tx) => tx.query("select note from store_table_probe"));
    expect(all).toHaveLength(2);
    const [table] = await ownerOf(db).query<{ forced: boolean }>(
      "select relforcerowsecurity as forced from pg_class where relname = 'store_table_probe'",
    );
    expect(table?.forced).toBe(true);
    await expect(
      acrossStores(db, "a test of dashboard_store_table", (tx) => tx.query("insert into store_table_probe values ('', 'none')")),
    ).rejects.toThrow(/store_table_probe_store_url_named/);
  });
});
