import { randomBytes, randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openForSuite, storageBackends, unique, type Location } from "@/test/databases";
import { bareSession } from "@/test/sessions";
import type { Db } from "@/server/db/database";
import { acrossStores, applicationDb, inReach, sessionDb, withReach } from "@/server/db/reach";

/** Every table that holds a store's data (migrations 0011, 0013, 0014, 0020, 0024 and 0025 put each under row-level security). */
const STORE_TABLES = [
  "audit_entries",
  "idempotency_records",
  "clone_attempts",
  "saved_views",
  "notes",
  "revenue_targets",
  "grants",
  "grant_notices",
  "deliveries",
  "digest_schedules",
  "digest_recipients",
  "alert_rules",
  "alert_episodes",
  "notifications",
  "notification_reads",
  "webhook_deliveries",
  "rollup_days",
  "rollup_day_cells",
  "rollup_claims",
  "rollup_restatements",
  "rollup_day_channels",
  "rollup_product_months",
  "mail_suppressions",
  "send_now_presses",
  "mail_unsubscribe_links",
  "rollup_stores_unreached",
  "rollup_month_use",
  "alert_mail_hours",
  "alert_mail_held",
  "jobs",
];

/** One row in every store table, for `store`; returns nothing, throws when a row is refused. */
async function plant(tx: Db, store: string): Promise<void> {
  const id = (prefix: string) => `${prefix}_${randomBytes(5).toString("hex")}`;
  const [view, grant, schedule, rule, note] = [id("view"), id("grant"), id("digest"), id("rule"), id("note")];
  const rows: [string, unknown[]][] = [
    [
      `insert into audit_entries (id, at, organization_id, store_url, user_email, action, outcome, target)
       values ($1, now(), 'org_rls', $2, 'ada@example.com', 'tracking-connection.remove', 'succeeded', '{}')`,
      [id("act"), store],
    ],
    [
      `insert into idempotency_records (key_fingerprint, idempotency_key, request_fingerprint, action, state, attempt_id, locked_at,
         store_url, user_email, target, created_at, expires_at)
       values ($1, $2, 'r', 'campaign-group.clone', 'started', 'a', now(), $3, 'ada@example.com', '{}', now(), now() + interval '1 day')`,
      [id("fp"), randomUUID(), store],
    ],
    [
      `insert into clone_attempts (session_id, store_url, organization_id, key_fingerprint, idempotency_key, request, created_at)
       values ($1, $2, 'org_rls', 'fp', $3, '{}', now())`,
      [id("session"), store, randomUUID()],
    ],
    [
      `insert into saved_views (id, organization_id, store_url, name, name_key, view, created_by_email, created_at, updated_at)
       values ($1, 'org_rls', $2, $1, $1, '{}', 'ada@example.com', now(), now())`,
      [view, store],
    ],
    [
      `insert into notes (id, organization_id, store_url, start_date, end_date, text, author_email, created_at, updated_at)
       values ($1, 'org_rls', $2, '2026-01-01', '2026-01-01', 'A note', 'ada@example.com', now(), now())`,
      [id("note"), store],
    ],
    [
      `insert into revenue_targets (organization_id, store_url, month, amount, currency, set_by_email, set_at)
       values ('org_rls', $1, '2026-01', 100, 'USD', 'ada@example.com', now())`,
      [store],
    ],
    [
      `insert into grants (id, organization_id, store_url, key_fingerprint, owner_email, master_key_id, wrapped_data_key, sealed_api_key,
         created_at, expires_at)
       values ($1, 'org_rls', $2, 'fp', 'ada@example.com', 'k', '\\x00', '\\x00', now(), now() + interval '1 day')`,
      [grant, store],
    ],
    [
      `insert into grant_notices (grant_id, organization_id, store_url, owner_email, key_fingerprint, kind, message)
       values ($1, 'org_rls', $2, 'ada@example.com', 'fp', 'grant_ended', 'Ended')`,
      [grant, store],
    ],
    [
      `insert into deliveries (key, store_url, recipient, subject, html, text_body, channel, outcome)
       values ($1, $2, 'ada@example.com', 'Digest', '<p>Digest</p>', 'Digest', 'outbox', 'sent')`,
      [id("delivery"), store],
    ],
    [
      `insert into digest_schedules (id, organization_id, store_url, saved_view_id, grant_id, cadence, local_time, time_zone, next_run_at,
         created_by_email, created_at)
       values ($1, 'org_rls', $2, $3, $4, 'daily', '08:00', 'UTC', now(), 'ada@example.com', now())`,
      [schedule, store, view, grant],
    ],
    [
      `insert into digest_recipients (schedule_id, email, unsubscribe_token, store_url) values ($1, 'team@example.com', $2, $3)`,
      [schedule, id("token"), store],
    ],
    [
      `insert into alert_rules (id, organization_id, store_url, definition, webhook_secret, created_by_email, created_at, updated_at)
       values ($1, 'org_rls', $2, '{}', 's', 'ada@example.com', now(), now())`,
      [rule, store],
    ],
    [
      `insert into alert_episodes (id, rule_id, opened_period, opened_at, value, store_url) values ($1, $2, '2026-01-01', now(), 1, $3)`,
      [id("episode"), rule, store],
    ],
    [
      `insert into notifications (id, organization_id, store_url, kind, title, body, created_at)
       values ($1, 'org_rls', $2, 'alert_fired', 'Fired', '{}', now())`,
      [note, store],
    ],
    [
      `insert into notification_reads (notification_id, reader_email, read_at, store_url) values ($1, 'ada@example.com', now(), $2)`,
      [note, store],
    ],
    [
      `insert into webhook_deliveries (id, notification_id, url, attempt, outcome, at, store_url)
       values ($1, $2, 'https://hooks.example/x', 1, 'sent', now(), $3)`,
      [id("hook"), note, store],
    ],
    [
      `insert into rollup_days (store_url, source, day, currency, row_count, orders, units, revenue, bytes, filled_at, used_at)
       values ($1, 'conversion', '2026-01-01', 'USD', 1, 1, 1, 10, 200, now(), now())`,
      [store],
    ],
    [
      `insert into rollup_day_cells (store_url, source, filter_key, day, channel, product_id, product_name, product_sku, first_row,
         currency, currency_row, row_count, orders, units, revenue)
       values ($1, 'conversion', '', '2026-01-01', '{google}', '{prod_1}', '{NULL}', '{NULL}', '{0}', '{USD}', '{0}', '{1}', '{1}', '{1}', '{10}')`,
      [store],
    ],
    [
      `insert into rollup_day_channels (store_url, source, filter_key, day, channel, row_count, orders, units, revenue)
       values ($1, 'conversion', '', '2026-01-01', 'google', 1, 1, 1, 10)`,
      [store],
    ],
    [
      `insert into rollup_product_months (store_url, source, filter_key, month, product_id, row_count, orders, units, revenue,
         first_key, cells, names, skus)
       values ($1, 'conversion', '', '2026-01-01', 'prod_1', 1, 1, 1, 10, 0, 1, 0, 0)`,
      [store],
    ],
    [`insert into rollup_claims (store_url, source, day, claimed_until) values ($1, 'conversion', '2026-01-02', now())`, [store]],
    [
      `insert into rollup_restatements (id, store_url, source, day, detected_at, revenue_before, revenue_after, orders_before,
         orders_after, units_before, units_after, channels, products)
       values ($1, $2, 'conversion', '2026-01-01', now(), 10, 15, 1, 1, 1, 1, '[]', '[]')`,
      [id("restated"), store],
    ],
    [
      `insert into mail_suppressions (organization_id, store_url, email, suppressed_at) values ('org_rls', $1, 'gone@example.com', now())`,
      [store],
    ],
    [
      `insert into send_now_presses (organization_id, store_url, schedule_id, person, at) values ('org_rls', $1, $2, 'ada@example.com', now())`,
      [store, schedule],
    ],
    [
      `insert into mail_unsubscribe_links (token, organization_id, store_url, email) values ($1, 'org_rls', $2, 'ada@example.com')`,
      [id("link"), store],
    ],
    [`insert into rollup_stores_unreached (store_url, since) values ($1, now())`, [store]],
    [`insert into rollup_month_use (store_url, source, month, used_at) values ($1, 'conversion', '2026-01-01', now())`, [store]],
    [`insert into alert_mail_hours (store_url, hour, sent) values ($1, date_trunc('hour', now()), 1)`, [store]],
    [
      `insert into alert_mail_held (notification_id, email, organization_id, store_url, hour) values ($1, 'ada@example.com', 'org_rls', $2, now())`,
      [note, store],
    ],
    [`insert into jobs (name, payload, organization_id, store_url) values ('test.rls', '{}', 'org_rls', $1)`, [store]],
  ];
  for (const [sql, params] of rows) await tx.query(sql, params);
}

/** A session of a key of its own, with its key ring's row. */
const newSession = (db: Db) => bareSession(db, unique("fp"), new Date());

/** A table's rows of a store (the queue's jobs of no store aside: every reach sees those). */
const rowsOf = (tx: Db, table: string) =>
  tx.query<{ store_url: string }>(`select store_url from ${table}${table === "jobs" ? " where store_url is not null" : ""}`);

describe.each(storageBackends())("row-level security on %s", (backend) => {
  let db: Db;
  let location: Location;
  let close: () => Promise<void>;
  const [ours, theirs] = [unique("ours.example"), unique("theirs.example")];

  beforeAll(async () => {
    ({ db, location, close } = await openForSuite(backend));
    await withReach(db, [ours], (tx) => plant(tx, ours));
    await withReach(db, [theirs], (tx) => plant(tx, theirs));
  });
  afterAll(() => close());

  it("covers every table that has a store_url column, each forced, and the column is never null", async () => {
    const tables = await db.query<{ name: string; forced: boolean; enabled: boolean; nullable: string }>(
      `select c.relname as name, c.relforcerowsecurity as forced, c.relrowsecurity as enabled, a.is_nullable as nullable
       from pg_class c join information_schema.columns a on a.table_name = c.relname and a.column_name = 'store_url'
       where a.table_schema = current_schema() and c.relkind = 'r' and c.relnamespace = current_schema()::regnamespace order by 1`,
    );
    expect(tables.map((table) => table.name).sort()).toEqual([...STORE_TABLES].sort());
    // The queue's jobs may name no store (the planner, the purges): docs/decisions/row-level-security.md.
    for (const table of tables)
      expect(table, table.name).toMatchObject({ forced: true, enabled: true, nullable: table.name === "jobs" ? "YES" : "NO" });
  });

  it("gives a plain role with SELECT on every table no row of any table with a store column", async () => {
    // A key ring's rows (their stores in store_urls) and a job of no store, besides a row of every store table.
    await newSession(db);
    await db.query("insert into jobs (name, payload) values ('test.no-store', '{}')");
    const withStoreColumn = (
      await db.query<{ name: string }>(
        `select distinct c.table_name as name from information_schema.columns c join information_schema.tables t using (table_schema, table_name)
         where c.table_schema = current_schema() and c.column_name in ('store_url', 'store_urls') and t.table_type = 'BASE TABLE'`,
      )
    ).map((row) => row.name);
    expect(withStoreColumn.sort()).toEqual([...STORE_TABLES, "session_keys"].sort());
    const role = unique("dash_probe");
    await db.exec(
      `create role ${role} login; grant usage on schema public to ${role}; grant select on all tables in schema public to ${role}`,
    );
    try {
      const seen: Record<string, number> = {};
      if (backend === "postgres") {
        const url = new URL(location.url!);
        url.username = role;
        const client = new pg.Client({ connectionString: url.toString() });
        await client.connect();
        try {
          for (const table of withStoreColumn) seen[table] = (await client.query(`select * from ${table}`)).rowCount ?? 0;
        } finally {
          await client.end();
        }
      } else {
        await db.transaction(async (tx) => {
          await tx.exec(`set local role ${role}`);
          for (const table of withStoreColumn) seen[table] = (await tx.query(`select * from ${table}`)).length;
        });
      }
      expect(seen).toEqual(Object.fromEntries(withStoreColumn.map((table) => [table, 0])));
    } finally {
      await db.exec(`drop owned by ${role}; drop role ${role}`);
    }
  });

  it("reads the reach once per statement, not once per row (a million rollup rows took 4.7 s the other way)", async () => {
    for (const table of STORE_TABLES) {
      const plan = await withReach(db, [theirs], (tx) => tx.query<Record<string, string>>(`explain select * from ${table}`));
      const text = plan.map((row) => Object.values(row).join(" ")).join("\n");
      expect(text, table).toMatch(/InitPlan/);
    }
  });

  it("shows a query without any filter only the rows of its reach", async () => {
    for (const table of STORE_TABLES) {
      const rows = await withReach(db, [theirs], (tx) => rowsOf(tx, table));
      expect(rows.length, table).toBeGreaterThan(0);
      expect(
        rows.filter((row) => row.store_url !== theirs),
        table,
      ).toEqual([]);
    }
  });

  it("shows no row without a reach, through the application's handle as through a transaction", async () => {
    const app = applicationDb(db);
    for (const table of STORE_TABLES) {
      expect(await rowsOf(app, table), table).toEqual([]);
      expect(await withReach(db, [], (tx) => rowsOf(tx, table)), table).toEqual([]);
      const inOurs = await inReach([ours], () => rowsOf(app, table));
      expect(new Set(inOurs.map((row) => row.store_url)), table).toEqual(new Set([ours]));
    }
  });

  it("refuses inserts, and changes nothing on updates and deletes, outside the reach", async () => {
    await expect(withReach(db, [theirs], (tx) => plant(tx, ours))).rejects.toThrow(/row-level security/);
    for (const table of STORE_TABLES) {
      await expect(
        withReach(db, [theirs], (tx) => tx.query(`update ${table} set store_url = $1 where store_url = $2 returning 1`, [theirs, ours])),
      ).resolves.toEqual([]);
      await expect(
        withReach(db, [theirs], (tx) => tx.query(`delete from ${table} where store_url = $1 returning 1`, [ours])),
      ).resolves.toEqual([]);
      // Moving one of its own rows to another store is refused too.
      await expect(
        withReach(db, [theirs], (tx) => tx.query(`update ${table} set store_url = $1 where store_url = $2`, [ours, theirs])),
        table,
      ).rejects.toThrow(/row-level security/);
    }
  });

  it("binds a reach and a purpose holding quotes and backslashes exactly as given (they travel as literals with begin)", async () => {
    const odd = ["https://o'brien.example/\\'; reset role; --", "https://e\\'x.example"];
    const reach = await withReach(db, odd, (tx) =>
      tx.query<{ reach: string; role: string }>("select current_setting('dashboard.reach') as reach, current_user as role"),
    );
    expect(reach).toEqual([{ reach: JSON.stringify(odd), role: "dashboard_app" }]);
    const why = "a purpose with ' and \\ and $$";
    const purpose = await acrossStores(db, why, (tx) =>
      tx.query<{ purpose: string }>("select current_setting('dashboard.purpose') as purpose"),
    );
    expect(purpose).toEqual([{ purpose: why }]);
    // Nested, a transaction joins the outer one and keeps its binding.
    const nested = await withReach(db, [theirs], (tx) => tx.transaction((inner) => rowsOf(inner, "saved_views")));
    expect(new Set(nested.map((row) => row.store_url))).toEqual(new Set([theirs]));
  });

  it("lets only the named maintenance path see across stores", async () => {
    for (const table of STORE_TABLES) {
      const rows = await acrossStores(db, "a test of the maintenance role", (tx) =>
        tx.query<{ store_url: string }>(`select store_url from ${table} where store_url = any($1::text[])`, [[ours, theirs]]),
      );
      expect(new Set(rows.map((row) => row.store_url)), table).toEqual(new Set([ours, theirs]));
    }
  });

  it("shows a key ring's rows to their own session only", async () => {
    const [mine, other] = [await newSession(db), await newSession(db)];
    const seenBy = (id: string) => sessionDb(db, id).query<{ id: string }>("select session_id as id from session_keys");
    expect(await seenBy(mine.id)).toEqual([{ id: mine.id }]);
    expect(await seenBy(other.id)).toEqual([{ id: other.id }]);
    expect(await applicationDb(db).query("select * from session_keys")).toEqual([]);
    await expect(
      sessionDb(db, mine.id).query("insert into session_keys (session_id, key_fingerprint, label, added_at) values ($1, 'fp', '', now())", [
        other.id,
      ]),
    ).rejects.toThrow(/row-level security/);
  });

  it("refuses acrossStores on a handle already inside a transaction, so the rest of it never turns maintenance", async () => {
    await expect(withReach(db, [ours], (tx) => acrossStores(tx, "a test", (inner) => rowsOf(inner, "notes")))).rejects.toThrow(
      /cannot join a transaction/,
    );
  });

  it("never names the store '': the reach binding and the schema refuse it", async () => {
    await expect(withReach(db, [""], (tx) => rowsOf(tx, "notes"))).rejects.toThrow(/empty store URL/);
    const error = await acrossStores(db, "a test", (tx) =>
      tx.query(
        `insert into notes (id, organization_id, store_url, start_date, end_date, text, author_email, created_at, updated_at)
         values ('note_empty', 'org_rls', '', '2026-01-01', '2026-01-01', 'x', 'a@example.com', now(), now())`,
      ),
    ).catch((caught: Error) => caught);
    expect(String(error)).toMatch(/notes_store_url_named/);
    // A reach holding '' (set by hand) reads none of the rows kept there (planted as the backfill of 0010 left them, then rolled back).
    const seen: unknown[] = [];
    const rolledBack = await db
      .transaction(async (tx) => {
        await tx.exec("alter table deliveries drop constraint deliveries_store_url_named");
        await tx.query(
          `insert into deliveries (key, store_url, recipient, subject, html, text_body, channel, outcome)
           values ('orphan-key', '', 'a@example.com', 's', '', '', 'outbox', 'sent')`,
        );
        await tx.exec(`set local role dashboard_app; select set_config('dashboard.reach', '[""]', true)`);
        seen.push(...(await tx.query("select key from deliveries")));
        throw new Error("rolled back");
      })
      .catch((caught: Error) => caught.message);
    expect(rolledBack).toBe("rolled back");
    expect(seen).toEqual([]);
  });

  it("gives neither role any privilege on the migrations' ledger or the database's secrets", async () => {
    for (const role of ["dashboard_app", "dashboard_maintenance"])
      for (const table of ["schema_migrations", "dashboard_secrets"])
        for (const privilege of ["select", "insert", "update", "delete"]) {
          const [row] = await db.query<{ has: boolean }>("select has_table_privilege($1, $2, $3) as has", [role, table, privilege]);
          expect(row!.has, `${role} ${privilege} ${table}`).toBe(false);
        }
  });
});
