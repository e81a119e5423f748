import "server-only";
import { newDeliveryTally, settleDeliveries } from "@/server/delivery/ledger";
import { z } from "zod";
import type { AlertMessageInput } from "@/shared/schemas/alert";
import { alertRuleInputSchema } from "@/shared/schemas/alert";
import { alertTitle, whatMovedLines } from "@/shared/alert-message";
import { getRule, type StoredRule } from "@/server/db/alert-rules";
import { database, type Db } from "@/server/db/database";
import { deliverMail, publicOrigin } from "@/server/delivery/mail";
import { alertEmailHtml } from "./email";
import { unsubscribeTokenFor, unsuppressed } from "@/server/delivery/suppressions";
import { enqueue, registerJob, type RunningJob } from "@/server/jobs/queue";
import { registerHeldSummaryJob, takeAlertMail } from "./mail-cap";

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

const ruleLink = (rule: StoredRule) => `${publicOrigin()}/stores/${encodeURIComponent(rule.storeUrl)}/alerts/${rule.id}`;

function render(message: AlertMessageInput, rule: StoredRule, unsubscribe: string) {
  const title = alertTitle(message);
  const lines = whatMovedLines(message);
  const text = [
    title,
    ...(lines.length ? ["", "What moved:", ...lines.map((line) => `- ${line}`)] : []),
    "",
    `Open the rule: ${ruleLink(rule)}`,
    `Unsubscribe from this store's alert e-mails: ${unsubscribe}`,
  ].join("\n");
  const html = alertEmailHtml({ title, lines, ruleLink: ruleLink(rule), unsubscribeLink: unsubscribe });
  return { title, text, html };
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
  const outcomes = newDeliveryTally();
  let held = 0;
  // An address that unsubscribed from the store's mail is skipped, whoever added it to the rule.
  for (const to of await unsuppressed(db, rule, emails)) {
    // Past the store's ALERT_MAIL_PER_HOUR the e-mail is held back: the inbox keeps the alert.
    if (!(await takeAlertMail(db, notification, to, new Date()))) {
      held += 1;
      continue;
    }
    const unsubscribe = `${publicOrigin()}/api/unsubscribe/${await unsubscribeTokenFor(db, rule, to)}`;
    const { title, text, html } = render(notification.body as AlertMessageInput, rule, unsubscribe);
    const delivery = await deliverMail({
      key: `alert:${notification.id}:${to}`,
      to,
      subject: title,
      text,
      html,
      headers: { "List-Unsubscribe": `<${unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
      organizationId: rule.organizationId,
      storeUrl: rule.storeUrl,
      jobId: job.id,
      workerId: job.workerId,
      signal: job.signal,
    });
    outcomes[delivery.outcome] += 1;
  }
  const { detail } = settleDeliveries(outcomes);
  return { detail: held > 0 ? `${detail}, ${held} held back (ALERT_MAIL_PER_HOUR)` : detail };
}

export function registerAlertEmailJob(): void {
  registerJob(EMAIL, sendAlertEmails, { maxAttempts: 5, backoffMs: 30_000 });
  registerHeldSummaryJob();
}
