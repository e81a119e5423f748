import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storageBackends } from "@/test/databases";
import { openBefore } from "@/test/migrations";
import type { Db } from "@/server/db/database";
import { migrate } from "@/server/db/migrate";
import { acrossStores } from "@/server/db/reach";

/**
 * Migration 0010 on a database that already holds rows: every row of a store's data takes its
 * store (from its parent, or from what a delivery's key names), and only then is the column
 * made non-null. The rows are written as the schema stood at 0009.
 */

const STORE = "shop.example";

describe.each(storageBackends())("the store_url backfill of migration 0010 on %s", (backend) => {
  let db: Db;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await openBefore(backend, "0010"));
    await db.exec(`
      insert into saved_views (id, organization_id, store_url, name, name_key, view, created_by_email, created_at, updated_at)
        values ('view_1', 'org_1', '${STORE}', 'V', 'v', '{}', 'a@example.com', now(), now());
      insert into grants (id, organization_id, store_url, key_fingerprint, owner_email, master_key_id, wrapped_data_key, sealed_api_key,
        created_at, expires_at)
        values ('grant_1', 'org_1', '${STORE}', 'fp', 'a@example.com', 'k', '\\x00', '\\x00', now(), now() + interval '1 day');
      insert into digest_schedules (id, organization_id, store_url, saved_view_id, grant_id, cadence, local_time, time_zone, next_run_at,
        created_by_email, created_at)
        values ('digest_1', 'org_1', '${STORE}', 'view_1', 'grant_1', 'daily', '08:00', 'UTC', now(), 'a@example.com', now());
      insert into digest_recipients (schedule_id, email, unsubscribe_token) values ('digest_1', 'b@example.com', 'token_1');
      insert into alert_rules (id, organization_id, store_url, definition, webhook_secret, created_by_email, created_at, updated_at)
        values ('rule_1', 'org_1', '${STORE}', '{}', 's', 'a@example.com', now(), now());
      insert into alert_episodes (id, rule_id, opened_period, opened_at, value) values ('episode_1', 'rule_1', '2026-01-01', now(), 1);
      insert into notifications (id, organization_id, store_url, kind, title, body, created_at)
        values ('note_1', 'org_1', '${STORE}', 'alert_fired', 'Fired', '{}', now());
      insert into notification_reads (notification_id, reader_email, read_at) values ('note_1', 'a@example.com', now());
      insert into webhook_deliveries (id, notification_id, url, attempt, outcome, at) values ('hook_1', 'note_1', 'https://h.example', 1, 'sent', now());
      insert into deliveries (key, recipient, subject, html, text_body, channel, outcome) values
        ('digest:digest_1:slot:b@example.com', 'b@example.com', 'D', 'd', 'd', 'outbox', 'sent'),
        ('alert:note_1:b@example.com', 'b@example.com', 'A', 'a', 'a', 'outbox', 'sent'),
        ('grant-ended:grant_1', 'a@example.com', 'G', 'g', 'g', 'outbox', 'sent'),
        ('something-else', 'a@example.com', 'X', 'x', 'x', 'outbox', 'sent');
      insert into jobs (name, payload, organization_id) values ('digest.send', '{"scheduleId": "digest_1", "slot": "s"}', 'org_1'),
        ('digest.plan', '{}', null);
    `);
    expect(await migrate(db)).toEqual(expect.arrayContaining(["0010_store_url_everywhere", "0011_row_level_security"]));
  });
  afterAll(async () => {
    await db.close();
    await drop();
  });

  it("gives each row the store of its parent, or of what its key names", async () => {
    const storeOf = (sql: string) => acrossStores(db, "a test of the backfill", (tx) => tx.query<{ store: string }>(sql));
    for (const table of ["digest_recipients", "alert_episodes", "notification_reads", "webhook_deliveries"]) {
      expect(await storeOf(`select store_url as store from ${table}`), table).toEqual([{ store: STORE }]);
    }
    const deliveries = await storeOf("select key || ' ' || store_url as store from deliveries order by key");
    expect(deliveries.map((row) => row.store)).toEqual([
      `alert:note_1:b@example.com ${STORE}`,
      `digest:digest_1:slot:b@example.com ${STORE}`,
      `grant-ended:grant_1 ${STORE}`,
      "something-else ",
    ]);
    const jobs = await db.query<{ name: string; store: string | null }>("select name, store_url as store from jobs order by name");
    expect(jobs).toEqual([
      { name: "digest.plan", store: null },
      { name: "digest.send", store: STORE },
    ]);
  });
});
