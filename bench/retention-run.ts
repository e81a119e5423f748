/**
 * The retention bench's measuring side, run with the server's module conditions by
 * bench/retention.ts: seeds a year of deliveries, notifications and webhook attempts for
 * BENCH_STORES stores into DATABASE_URL, runs the daily purge once, and prints its time and the
 * tables' rows and sizes before and after.
 */
import { openDatabase, type Db } from "@/server/db/database";
import { acrossStores } from "@/server/db/reach";
import { purgedLine, purgeRetained } from "@/server/maintenance/retention";
import { DEFAULT_RETENTION } from "@/test/retention";

const STORES = Number(process.env.BENCH_STORES ?? 50);
const DAYS = Number(process.env.BENCH_DAYS ?? 365);
const MAILS_PER_DAY = Number(process.env.BENCH_MAILS_PER_DAY ?? 4);
const NOTICES_PER_DAY = Number(process.env.BENCH_NOTICES_PER_DAY ?? 3);
const TABLES = ["deliveries", "notifications", "notification_reads", "webhook_deliveries"];

async function seed(db: Db): Promise<void> {
  await acrossStores(db, "retention bench: seed a year of rows", async (tx) => {
    // A digest's HTML is a few kilobytes of varied text (hex digests, which compress like prose).
    await tx.query(
      `insert into deliveries (key, organization_id, store_url, recipient, subject, html, text_body, channel, outcome, created_at, updated_at)
       select format('bench:%s:%s:%s', s, d, m), 'org_bench', format('store-%s.example', s), format('r%s@example.com', m), 'Daily digest',
         (select string_agg(md5(format('%s-%s-%s-%s', s, d, m, i)), ' ') from generate_series(1, 60) i),
         (select string_agg(md5(format('t%s-%s-%s-%s', s, d, m, i)), ' ') from generate_series(1, 15) i),
         'smtp', 'sent', now() - make_interval(days => d), now() - make_interval(days => d)
       from generate_series(1, $1::int) s, generate_series(0, $2::int - 1) d, generate_series(1, $3::int) m`,
      [STORES, DAYS, MAILS_PER_DAY],
    );
    await tx.query(
      `insert into notifications (id, organization_id, store_url, kind, title, body, created_at)
       select format('n_%s_%s_%s', s, d, k), 'org_bench', format('store-%s.example', s), 'alert_fired', 'Revenue fell',
         jsonb_build_object('value', d * k), now() - make_interval(days => d)
       from generate_series(1, $1::int) s, generate_series(0, $2::int - 1) d, generate_series(1, $3::int) k`,
      [STORES, DAYS, NOTICES_PER_DAY],
    );
    await tx.query(
      `insert into notification_reads (notification_id, reader_email, read_at, store_url)
       select id, 'ada@example.com', created_at, store_url from notifications`,
    );
    await tx.query(
      `insert into webhook_deliveries (id, notification_id, url, attempt, outcome, status, at, store_url)
       select 'w_' || id, id, 'https://hooks.example/alerts', 1, 'sent', 200, created_at, store_url from notifications`,
    );
  });
  await db.exec(`analyze ${TABLES.join(", ")}`);
}

async function sizes(db: Db): Promise<Map<string, { rows: number; bytes: number }>> {
  const result = new Map<string, { rows: number; bytes: number }>();
  for (const table of TABLES) {
    const [row] = await acrossStores(db, "retention bench: table sizes", (tx) =>
      tx.query<{ rows: number; bytes: string }>(
        `select count(*)::int as rows, pg_total_relation_size('${table}')::text as bytes from ${table}`,
      ),
    );
    result.set(table, { rows: row!.rows, bytes: Number(row!.bytes) });
  }
  return result;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function main() {
  const db = await openDatabase({
    url: process.env.DATABASE_URL,
    pool: { poolSize: 2, connectTimeoutMs: 5_000, statementTimeoutMs: 600_000 },
  });
  try {
    const seeding = performance.now();
    await seed(db);
    const seeded = performance.now() - seeding;
    const first = await sizes(db);
    const started = performance.now();
    const purged = await purgeRetained(db, new Date(), DEFAULT_RETENTION);
    const tookMs = performance.now() - started;
    const after = await sizes(db);
    await db.exec(`vacuum full ${TABLES.join(", ")}`);
    const compacted = await sizes(db);
    console.log(
      `\nRetention purge: ${STORES} stores x ${DAYS} days (${MAILS_PER_DAY} e-mails and ${NOTICES_PER_DAY} notifications a store a day), one PostgreSQL`,
    );
    console.log(`  seeded in ${(seeded / 1000).toFixed(1)} s; purge (one run, default lifetimes) took ${(tookMs / 1000).toFixed(2)} s`);
    console.log(`  ${purgedLine(purged)}`);
    console.log("  table                 rows before -> after     size before -> after purge -> after VACUUM FULL");
    for (const table of TABLES) {
      const [b, a, c] = [first.get(table)!, after.get(table)!, compacted.get(table)!];
      console.log(
        `  ${table.padEnd(20)} ${String(b.rows).padStart(9)} -> ${String(a.rows).padEnd(9)} ${mb(b.bytes).padStart(10)} -> ${mb(a.bytes).padEnd(10)} -> ${mb(c.bytes)}`,
      );
    }
  } finally {
    await db.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
