import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/server/db/database";
import { withReach } from "@/server/db/reach";
import { openForSuite, storageBackends, unique } from "@/test/databases";
import { DEFAULT_RETENTION } from "@/test/retention";
import { purgedLine, purgeRetained } from "./retention";

const DAY_MS = 86_400_000;

describe.each(storageBackends())("the retention purge on %s", (backend) => {
  let db: Db;
  let close: () => Promise<void>;
  const store = unique("retention.example");
  const now = new Date();
  const ago = (days: number) => new Date(now.getTime() - days * DAY_MS);
  const id = (prefix: string) => `${prefix}_${randomBytes(5).toString("hex")}`;

  beforeAll(async () => ({ db, close } = await openForSuite(backend)));
  afterAll(() => close());

  /** Rows of one store, each `days` old. */
  async function plant(tx: Db) {
    const made: Record<string, string> = {};
    for (const days of [10, 50, 100]) {
      made[`delivery${days}`] = id("mail");
      await tx.query(
        `insert into deliveries (key, store_url, recipient, subject, html, text_body, channel, outcome, created_at)
         values ($1, $2, 'ada@example.com', 'Digest', '<p>Digest</p>', 'Digest', 'outbox', 'sent', $3)`,
        [made[`delivery${days}`], store, ago(days)],
      );
    }
    for (const days of [300, 500]) {
      made[`notification${days}`] = id("note");
      await tx.query(
        `insert into notifications (id, organization_id, store_url, kind, title, body, created_at) values ($1, 'org_r', $2, 'alert_fired', 'Fired', '{}', $3)`,
        [made[`notification${days}`], store, ago(days)],
      );
    }
    for (const days of [20, 40])
      await tx.query(
        `insert into webhook_deliveries (id, notification_id, url, attempt, outcome, at, store_url) values ($1, $2, 'https://hooks.example/x', 1, 'sent', $3, $4)`,
        [id(`hook${days}`), made.notification300, ago(days), store],
      );
    for (const [name, deletedDays] of [
      ["kept", null],
      ["recent", 10],
      ["old", 40],
    ] as const) {
      made[`rule_${name}`] = id("rule");
      await tx.query(
        `insert into alert_rules (id, organization_id, store_url, definition, webhook_secret, created_by_email, created_at, updated_at, deleted_at)
         values ($1, 'org_r', $2, '{}', 's', 'ada@example.com', $3, $3, $4)`,
        [made[`rule_${name}`], store, ago(600), deletedDays === null ? null : ago(deletedDays)],
      );
    }
    for (const [resolvedDays, rule] of [
      [null, made.rule_kept],
      [100, made.rule_kept],
      [500, made.rule_kept],
    ] as const)
      await tx.query(
        `insert into alert_episodes (id, rule_id, opened_period, opened_at, value, store_url, resolved_at) values ($1, $2, '2025-01-01', $3, 1, $4, $5)`,
        [id("episode"), rule, ago(600), store, resolvedDays === null ? null : ago(resolvedDays)],
      );
    const grant = id("grant");
    await tx.query(
      `insert into grants (id, organization_id, store_url, key_fingerprint, owner_email, master_key_id, wrapped_data_key, sealed_api_key, created_at, expires_at)
       values ($1, 'org_r', $2, 'fp', 'ada@example.com', 'k', '\\x00', '\\x00', $3, $3)`,
      [grant, store, ago(600)],
    );
    for (const days of [10, 100])
      await tx.query(
        `insert into grant_notices (grant_id, organization_id, store_url, owner_email, key_fingerprint, kind, message, created_at)
         values ($1, 'org_r', $2, 'ada@example.com', 'fp', 'grant_ended', 'Ended', $3)`,
        [grant, store, ago(days)],
      );
    return made;
  }

  it("erases mail bodies first and rows later, and each kind of row past its lifetime only", async () => {
    const made = await withReach(db, [store], plant);
    const purged = await purgeRetained(db, now, DEFAULT_RETENTION);
    expect(purged).toMatchObject({
      mailBodies: 1,
      deliveries: 1,
      webhookAttempts: 1,
      notifications: 1,
      episodes: 1,
      grantNotices: 1,
      deletedRules: 1,
    });
    expect(purgedLine(purged)).toMatch(/^1 mail bodies erased; deleted: 1 deliveries, 1 webhook attempts, 1 notifications, 1 episodes/);

    await withReach(db, [store], async (tx) => {
      const mails = await tx.query<{ key: string; html: string }>(
        "select key, html from deliveries where store_url = $1 order by created_at desc",
        [store],
      );
      expect(mails).toEqual([
        { key: made.delivery10, html: "<p>Digest</p>" },
        { key: made.delivery50, html: "" },
      ]);
      const notes = await tx.query<{ id: string }>("select id from notifications where store_url = $1", [store]);
      expect(notes.map((row) => row.id)).toEqual([made.notification300]);
      expect(await tx.query("select 1 from webhook_deliveries where store_url = $1", [store])).toHaveLength(1);
      expect(await tx.query("select 1 from alert_episodes where store_url = $1", [store])).toHaveLength(2);
      expect(await tx.query("select 1 from grant_notices where store_url = $1", [store])).toHaveLength(1);
      const rules = await tx.query<{ id: string }>("select id from alert_rules where store_url = $1 order by id", [store]);
      expect(rules.map((row) => row.id).sort()).toEqual([made.rule_kept, made.rule_recent].sort());
    });

    // Run again the same day: nothing more to remove.
    expect(Object.values(await purgeRetained(db, now, DEFAULT_RETENTION)).every((value) => value === 0)).toBe(true);
  });

  /** A store with a day of rollups, a month's product row and a claim. */
  async function rollupsOf(storeUrl: string, detectedDaysAgo: number[] = []) {
    await withReach(db, [storeUrl], async (tx) => {
      await tx.query(
        `insert into rollup_days (store_url, source, filter_key, day, row_count, orders, units, revenue, bytes, filled_at, used_at)
         values ($1, 'conversion', '', '2025-03-01', 1, 1, 1, 10, 400, $2, $2)`,
        [storeUrl, ago(40)],
      );
      await tx.query(
        `insert into rollup_product_months (store_url, source, filter_key, month, product_id, row_count, orders, units, revenue, first_key, cells, names, skus)
         values ($1, 'conversion', '', '2025-03-01', 'p1', 1, 1, 1, 10, 0, 1, 0, 0)`,
        [storeUrl],
      );
      await tx.query(
        `insert into rollup_claims (store_url, source, filter_key, day, claimed_until) values ($1, 'conversion', '', '2025-03-02', $2)`,
        [storeUrl, ago(40)],
      );
      for (const days of detectedDaysAgo)
        await tx.query(
          `insert into rollup_restatements (id, store_url, source, day, detected_at, revenue_before, revenue_after, orders_before, orders_after,
             units_before, units_after, channels, products) values ($1, $2, 'conversion', '2025-03-01', $3, 1, 2, 1, 1, 1, 1, '[]', '[]')`,
          [id("restated"), storeUrl, ago(days)],
        );
    });
  }

  /** A session, signed in or out, holding one key that reaches `storeUrl`. */
  async function sessionReaching(storeUrl: string, signedOut = false) {
    const session = id("session");
    await db.query(
      `insert into sessions (id, key_fingerprint, user_email, user_name, created_at, last_seen_at, revoked_at)
       values ($1, 'fp', 'ada@example.com', 'Ada', $2, $2, $3)`,
      [session, now, signedOut ? now : null],
    );
    await db.query(`insert into session_keys (session_id, key_fingerprint, label, store_urls, added_at) values ($1, 'fp', 'k', $2, $3)`, [
      session,
      [storeUrl],
      now,
    ]);
  }

  const rollupRows = (storeUrl: string) =>
    withReach(db, [storeUrl], async (tx) =>
      Promise.all(
        ["rollup_days", "rollup_product_months", "rollup_claims"].map(async (table) => {
          const [row] = await tx.query<{ count: number }>(`select count(*)::int as count from ${table} where store_url = $1`, [storeUrl]);
          return row!.count;
        }),
      ),
    );

  it("purges a store's rollups once no key has reached it for their retention period, and data changes as old as Activity's", async () => {
    const [unreached, signedIn, granted, back] = ["unreached", "signed-in", "granted", "back"].map((name) => unique(`${name}.example`)) as [
      string,
      string,
      string,
      string,
    ];
    await rollupsOf(unreached, [10, 500]);
    await rollupsOf(signedIn);
    await rollupsOf(granted);
    await rollupsOf(back);
    await sessionReaching(signedIn);
    // A key signed out counts for nothing; an open grant keeps its store reached.
    await sessionReaching(unreached, true);
    await withReach(db, [granted], (tx) =>
      tx.query(
        `insert into grants (id, organization_id, store_url, key_fingerprint, owner_email, master_key_id, wrapped_data_key, sealed_api_key, created_at, expires_at)
         values ($1, 'org_r', $2, 'fp', 'ada@example.com', 'k', '\\x00', '\\x00', $3, $4)`,
        [id("grant"), granted, now, new Date(now.getTime() + 90 * DAY_MS)],
      ),
    );

    // Today: the stores without a key are noted, nothing goes yet; the restatement older than Activity's lifetime does.
    expect(await purgeRetained(db, now, DEFAULT_RETENTION)).toMatchObject({ rollupStores: 0, dataChanges: 1 });
    for (const store of [unreached, signedIn, granted, back]) expect(await rollupRows(store)).toEqual([1, 1, 1]);
    // A key reaches one of them again before the period ends: its note is cleared.
    await sessionReaching(back);
    expect(await purgeRetained(db, new Date(now.getTime() + 10 * DAY_MS), DEFAULT_RETENTION)).toMatchObject({ rollupStores: 0 });

    const later = new Date(now.getTime() + 31 * DAY_MS);
    expect(await purgeRetained(db, later, DEFAULT_RETENTION)).toMatchObject({ rollupStores: 1 });
    expect(await rollupRows(unreached)).toEqual([0, 0, 0]);
    for (const store of [signedIn, granted, back]) expect(await rollupRows(store)).toEqual([1, 1, 1]);
    // Data changes keep their own lifetime, like Activity's entries.
    const kept = await withReach(db, [unreached], (tx) => tx.query("select 1 from rollup_restatements where store_url = $1", [unreached]));
    expect(kept).toHaveLength(1);
    expect(await purgeRetained(db, later, DEFAULT_RETENTION)).toMatchObject({ rollupStores: 0 });
  });
});
