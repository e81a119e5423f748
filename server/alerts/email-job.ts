import "server-only";
import { newDeliveryTally, settleDeliveries } from "@/server/delivery/ledger";
import { z } from "zod";
import type { AlertMessageInput } from "@/shared/schemas/alert";
import { alertRuleInputSchema } from "@/shared/schemas/alert";
import { alertTitle, whatMovedLines } from "@/shared/alert-message";
import { getRule } from "@/server/alerts/rules";
import { database, type Db } from "@/server/db/database";
import { deliverMail, publicOrigin } from "@/server/delivery/mail";
import { alertEmailHtml } from "./email";
import { unsubscribeTokenFor, unsuppressed } from "@/server/delivery/suppressions";
import { enqueue, registerJob, type RunningJob } from "@/server/jobs/queue";
import { heldOfHour, heldWords, HELD_SUMMARY, takeAlertMail } from "./mail-cap";

/**
 * A notification's e-mails, as a background job queued in the transaction that opens (or
 * resolves) the episode. Like a digest: a message not sent (refused, no connection) is tried
 * again with backoff; one whose outcome is unknown (sent, no answer) is never sent again, as
 * each address's delivery key names the notification.
 */
const EMAIL = "alerts.email";
const payloadSchema = z.object({ notificationId: z.string() });

/** Queues the e-mails of a notification once (its id names the job), in the reach of the rule's store. */
export async function enqueueAlertEmail(db: Db, notificationId: string, rule: { organizationId: string; storeUrl: string }): Promise<void> {
  const { organizationId, storeUrl } = rule;
  await enqueue(EMAIL, { notificationId }, { uniqueKey: `${EMAIL}:${notificationId}`, organizationId, storeUrl, db });
}

/**
 * One e-mail of the store's alert mail, once under `key`: its `lines` under `heading`, a link (to
 * the rule, or the inbox) and the address's own unsubscribe link and headers (RFC 8058).
 */
async function sendOne(
  job: RunningJob,
  store: { organizationId: string; storeUrl: string },
  mail: { key: string; to: string; title: string; heading: string; lines: string[]; link: string; linkText: string },
) {
  const unsubscribe = `${publicOrigin()}/api/unsubscribe/${await unsubscribeTokenFor(await database(), store, mail.to)}`;
  const { title, heading, lines, link, linkText } = mail;
  const listed = lines.length ? ["", `${heading}:`, ...lines.map((line) => `- ${line}`)] : [];
  return deliverMail({
    key: mail.key,
    to: mail.to,
    subject: title,
    text: [title, ...listed, "", `${linkText}: ${link}`, `Unsubscribe from this store's alert e-mails: ${unsubscribe}`].join("\n"),
    html: alertEmailHtml({ title, heading, lines, ruleLink: link, linkText, unsubscribeLink: unsubscribe }),
    headers: { "List-Unsubscribe": `<${unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
    ...store,
    jobId: job.id,
    workerId: job.workerId,
    signal: job.signal,
  });
}

async function sendAlertEmails(job: RunningJob): Promise<{ detail: string }> {
  const { notificationId } = payloadSchema.parse(job.payload);
  const db = await database();
  const [notification] = await db.query<{ id: string; ruleId: string | null; organizationId: string; storeUrl: string; body: unknown }>(
    `select id, rule_id as "ruleId", organization_id as "organizationId", store_url as "storeUrl", body from notifications where id = $1`,
    [notificationId],
  );
  if (!notification?.ruleId) return { detail: "Not sent: the notification was deleted." };
  const rule = await getRule(db, notification, notification.ruleId);
  if (!rule) return { detail: "Not sent: the rule was deleted." };
  const { emails } = alertRuleInputSchema.parse(rule.definition);
  const message = notification.body as AlertMessageInput;
  const lines = whatMovedLines(message);
  const link = `${publicOrigin()}/stores/${encodeURIComponent(rule.storeUrl)}/alerts/${rule.id}`;
  const outcomes = newDeliveryTally();
  let held = 0;
  // An address that unsubscribed from the store's mail is skipped, whoever added it to the rule.
  for (const to of await unsuppressed(db, rule, emails)) {
    // Past the store's ALERT_MAIL_PER_HOUR the e-mail is held back: the inbox keeps the alert.
    if (!(await takeAlertMail(db, notification, to, new Date()))) held += 1;
    else {
      const mail = {
        key: `alert:${notification.id}:${to}`,
        to,
        title: alertTitle(message),
        heading: "What moved",
        lines,
        link,
        linkText: "Open the rule",
      };
      outcomes[(await sendOne(job, rule, mail)).outcome] += 1;
    }
  }
  const { detail } = settleDeliveries(outcomes);
  return { detail: held > 0 ? `${detail}, ${held} held back (ALERT_MAIL_PER_HOUR)` : detail };
}

/** After the hour: one summary to each address held back ("12 alerts held back, see the inbox"). */
async function sendHeldSummaries(job: RunningJob): Promise<{ detail: string }> {
  const { hour } = z.object({ hour: z.iso.datetime() }).parse(job.payload);
  const outcomes = newDeliveryTally();
  for (const { email: to, count, why, ...store } of await heldOfHour(await database(), new Date(hour))) {
    const mail = { key: `${HELD_SUMMARY}:${store.storeUrl}:${hour}:${to}`, to, title: heldWords(count), heading: "Why", lines: [why] };
    outcomes[(await sendOne(job, store, { ...mail, link: `${publicOrigin()}/inbox`, linkText: "Open the inbox" })).outcome] += 1;
  }
  return settleDeliveries(outcomes);
}

export function registerAlertEmailJob(): void {
  registerJob(EMAIL, sendAlertEmails, { maxAttempts: 5, backoffMs: 30_000 });
  registerJob(HELD_SUMMARY, sendHeldSummaries, { maxAttempts: 5, backoffMs: 30_000 });
}
