import "server-only";
import { settings } from "@/server/config/settings";
import type { Db } from "@/server/db/database";
import { enqueue } from "@/server/jobs/queue";

/**
 * Alert e-mail has a bound over time: a store sends at most ALERT_MAIL_PER_HOUR alert e-mails in
 * a clock hour, counted per store whatever rules send them (migration 0024). Past it an e-mail is
 * held back (the inbox keeps the alert); after the hour each address held back gets one summary,
 * and no more summaries than the bound itself.
 */
export const HELD_SUMMARY = "alerts.held-summary";
const HOUR_MS = 3_600_000;

interface Notice {
  id: string;
  organizationId: string;
  storeUrl: string;
}

/**
 * One of the hour's e-mails of the store for this alert and address, or (over the bound) the
 * e-mail held back and the hour's summary queued, in one transaction: the count and the take are
 * one statement, so concurrent runs never pass the bound together. A retry finds what the first
 * run decided (its delivery, or its hold). True: send it.
 */
export async function takeAlertMail(db: Db, notice: Notice, email: string, now: Date): Promise<boolean> {
  const hour = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS);
  return db.transaction(async (tx) => {
    const [decided] = await tx.query<{ held: boolean }>(
      `select false as held from deliveries where key = $1
       union all select true from alert_mail_held where notification_id = $2 and email = $3`,
      [`alert:${notice.id}:${email}`, notice.id, email],
    );
    if (decided) return !decided.held;
    const [taken] = await tx.query(
      `insert into alert_mail_hours (store_url, hour, sent) values ($1, $2, 1)
       on conflict (store_url, hour) do update set sent = alert_mail_hours.sent + 1 where alert_mail_hours.sent < $3 returning sent`,
      [notice.storeUrl, hour, settings().mail.alertsPerHour],
    );
    if (taken) return true;
    await tx.query(
      `insert into alert_mail_held (notification_id, email, organization_id, store_url, hour) values ($1, $2, $3, $4, $5)
       on conflict do nothing`,
      [notice.id, email, notice.organizationId, notice.storeUrl, hour],
    );
    const { organizationId, storeUrl } = notice;
    const key = `${HELD_SUMMARY}:${storeUrl}:${hour.toISOString()}`;
    await enqueue(
      HELD_SUMMARY,
      { hour: hour.toISOString() },
      { uniqueKey: key, runAt: new Date(hour.getTime() + HOUR_MS), organizationId, storeUrl, db: tx },
    );
    return false;
  });
}

/** "12 alerts held back, see the inbox": the summary's subject. */
export const heldWords = (count: number) => `${count} alert${count === 1 ? "" : "s"} held back, see the inbox`;

/** The addresses held back in `hour` (of the job's store), the most held first, at most the bound: each gets one summary. */
export async function heldOfHour(db: Db, hour: Date) {
  const perHour = settings().mail.alertsPerHour;
  const held = await db.query<{ email: string; organizationId: string; storeUrl: string; count: number }>(
    `select email, min(organization_id) as "organizationId", store_url as "storeUrl", count(*)::int as count
     from alert_mail_held where hour = $1 group by store_url, email order by count desc, email limit $2`,
    [hour, perHour],
  );
  return held.map((row) => ({
    ...row,
    why: `${row.storeUrl} sends at most ${perHour} alert e-mails an hour; the inbox keeps every alert.`,
  }));
}
