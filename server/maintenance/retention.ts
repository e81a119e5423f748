import "server-only";
import { settings } from "@/server/config/settings";
import { database, type Db } from "@/server/db/database";
import { acrossStores } from "@/server/db/reach";
import { registerJob, scheduleRecurring } from "@/server/jobs/queue";
import { purgeUnreachedStores } from "@/server/rollups/retention";
import { evictOverBudget } from "@/server/rollups/bounds";
import { DAY_MS, daysAfter } from "@/shared/days";

/**
 * The daily retention purge (RETENTION_*), across stores: a message's body first, its row later; rollups of stores no key reaches, in time.
 */
const PURGE = "retention.purge";

type Lifetimes = ReturnType<typeof settings>["retention"];

/** What one purge removed, by what. */
type Purged = Record<
  | "mailBodies"
  | "deliveries"
  | "webhookAttempts"
  | "notifications"
  | "episodes"
  | "grantNotices"
  | "deletedRules"
  | "dataChanges"
  | "rollupStores"
  | "rollupDaysEvicted",
  number
>;

const before = (now: Date, days: number) => daysAfter(now, -days);

async function count(tx: Db, sql: string, params: unknown[]): Promise<number> {
  return (await tx.query(`${sql} returning 1`, params)).length;
}

export function purgeRetained(
  db: Db,
  now: Date,
  lifetimes: Lifetimes = settings().retention,
  budgetBytes = settings().rollups.budgetBytes,
): Promise<Purged> {
  return acrossStores(db, "daily retention purge", async (tx) => {
    // Rows past their lifetime first, so that a body is erased only from a row that stays.
    const deliveries = await count(tx, "delete from deliveries where created_at < $1", [before(now, lifetimes.deliveriesDays)]);
    const mailBodies = await count(
      tx,
      "update deliveries set html = '', text_body = '' where created_at < $1 and (html <> '' or text_body <> '')",
      [before(now, lifetimes.mailBodyDays)],
    );
    return {
      mailBodies,
      deliveries,
      webhookAttempts: await count(tx, "delete from webhook_deliveries where at < $1", [before(now, lifetimes.webhookAttemptsDays)]),
      // Their reads and remaining webhook attempts go with them (on delete cascade).
      notifications: await count(tx, "delete from notifications where created_at < $1", [before(now, lifetimes.notificationsDays)]),
      episodes: await count(tx, "delete from alert_episodes where resolved_at < $1", [before(now, lifetimes.notificationsDays)]),
      grantNotices: await count(tx, "delete from grant_notices where created_at < $1", [before(now, lifetimes.grantNoticesDays)]),
      // A deleted rule's episodes go with it (on delete cascade); its notifications keep their own lifetime.
      deletedRules: await count(tx, "delete from alert_rules where deleted_at < $1", [before(now, lifetimes.deletedRulesDays)]),
      dataChanges: await count(tx, "delete from rollup_restatements where detected_at < $1", [before(now, lifetimes.dataChangesDays)]),
      rollupStores: await purgeUnreachedStores(tx, now, lifetimes.rollupStoreDays),
      // The rollups' budget is kept here, once a day, never on a read.
      rollupDaysEvicted: await evictOverBudget(tx, budgetBytes),
    };
  });
}

/** "12 mail bodies erased, 3 deliveries, …": the run's line on the Runs page. */
export function purgedLine(purged: Purged): string {
  const { mailBodies, ...rows } = purged;
  const named = Object.entries(rows).map(([name, value]) => `${value} ${name.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`)}`);
  return `${mailBodies} mail bodies erased; deleted: ${named.join(", ")}`;
}

export function registerRetentionJob(): void {
  registerJob(PURGE, async () => ({ detail: purgedLine(await purgeRetained(await database(), new Date())) }), { maxAttempts: 3 });
  scheduleRecurring(PURGE, DAY_MS);
}
