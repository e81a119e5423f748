import "server-only";
import { z } from "zod";
import { settings } from "@/server/config/settings";
import { database, type Db } from "@/server/db/database";
import { deliverMail, publicOrigin } from "@/server/delivery/mail";
import { newDeliveryTally, settleDeliveries } from "@/server/delivery/ledger";
import { unsubscribeTokenFor } from "@/server/delivery/suppressions";
import { enqueue, registerJob, type RunningJob } from "@/server/jobs/queue";
import { alertEmailHtml } from "./email";

/**
 * Alert e-mail has a bound over time: a store sends at most ALERT_MAIL_PER_HOUR alert e-mails in
 * a clock hour, counted per store whatever rules send them (migration 0024). Past it an e-mail is
 * held back (the inbox keeps the alert); after the hour each address held back gets one summary,
 * and no more summaries than the bound itself.
 */
const SUMMARY = "alerts.held-summary";
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
    const key = `${SUMMARY}:${storeUrl}:${hour.toISOString()}`;
    await enqueue(
      SUMMARY,
      { hour: hour.toISOString() },
      { uniqueKey: key, runAt: new Date(hour.getTime() + HOUR_MS), organizationId, storeUrl, db: tx },
    );
    return false;
  });
}

/** "12 alerts held back, see the inbox": the summary's subject. */
export const heldWords = (count: number) => `${count} alert${count === 1 ? "" : "s"} held back, see the inbox`;

/** After the hour: one summary to each address held back (the most held first), at most the bound. */
async function sendSummaries(job: RunningJob): Promise<{ detail: string }> {
  const { hour } = z.object({ hour: z.iso.datetime() }).parse(job.payload);
  const db = await database();
  const held = await db.query<{ email: string; organizationId: string; storeUrl: string; count: number }>(
    `select email, min(organization_id) as "organizationId", store_url as "storeUrl", count(*)::int as count
     from alert_mail_held where hour = $1 group by store_url, email order by count desc, email limit $2`,
    [new Date(hour), settings().mail.alertsPerHour],
  );
  const outcomes = newDeliveryTally();
  for (const { email, organizationId, storeUrl, count } of held) {
    const store = { organizationId, storeUrl };
    const unsubscribe = `${publicOrigin()}/api/unsubscribe/${await unsubscribeTokenFor(db, store, email)}`;
    const inbox = `${publicOrigin()}/inbox`;
    const title = heldWords(count);
    const why = `${storeUrl} sends at most ${settings().mail.alertsPerHour} alert e-mails an hour; the inbox keeps every alert.`;
    const delivery = await deliverMail({
      key: `${SUMMARY}:${storeUrl}:${hour}:${email}`,
      to: email,
      subject: title,
      text: [title, "", why, "", `Open the inbox: ${inbox}`, `Unsubscribe from this store's alert e-mails: ${unsubscribe}`].join("\n"),
      html: alertEmailHtml({ title, lines: [why], ruleLink: inbox, linkText: "Open the inbox", unsubscribeLink: unsubscribe }),
      headers: { "List-Unsubscribe": `<${unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
      ...store,
      jobId: job.id,
      workerId: job.workerId,
    });
    outcomes[delivery.outcome] += 1;
  }
  return settleDeliveries(outcomes);
}

export function registerHeldSummaryJob(): void {
  registerJob(SUMMARY, sendSummaries, { maxAttempts: 5, backoffMs: 30_000 });
}
