import "server-only";
import { z } from "zod";
import { alertRuleInputSchema, alertMessageSchema } from "@/shared/schemas/alert";
import { slackBody } from "@/shared/alert-message";
import { settings } from "@/server/config/settings";
import { database, type Db } from "@/server/db/database";
import { recordWebhookAttempt } from "@/server/alerts/notifications";
import { publicOrigin } from "@/server/delivery/mail";
import { enqueue, registerJob, type RunningJob } from "@/server/jobs/queue";
import { deliverWebhook } from "./webhook";

/**
 * A notification's webhook, as a background job: a check (scheduled, or "Check now") records
 * the notification and queues this in the same transaction, and returns once its rules are
 * judged; the job posts, retries with backoff and records each attempt. A receiver that never
 * answers costs the job its retries, never the person who pressed "Check now".
 */
const WEBHOOK = "alerts.webhook";
const payloadSchema = z.object({ notificationId: z.string() });

/** Queues the webhook of a notification once (its id names the job); the job runs in the reach of the rule's store. */
export async function enqueueAlertWebhook(
  db: Db,
  notificationId: string,
  rule: { organizationId: string; storeUrl: string },
): Promise<void> {
  const { organizationId, storeUrl } = rule;
  await enqueue(WEBHOOK, { notificationId }, { uniqueKey: `${WEBHOOK}:${notificationId}`, organizationId, storeUrl, db });
}

interface PendingWebhook {
  notificationId: string;
  storeUrl: string;
  ruleId: string;
  definition: unknown;
  webhookSecret: string;
  body: unknown;
}

/** The notification and the rule it came from, in the job's reach (the store its job names). */
async function webhookOfNotification(db: Db, notificationId: string): Promise<PendingWebhook | null> {
  const [row] = await db.query<PendingWebhook>(
    `select n.id as "notificationId", n.store_url as "storeUrl", r.id as "ruleId", r.definition, r.webhook_secret as "webhookSecret", n.body
     from notifications n join alert_rules r on r.id = n.rule_id where n.id = $1`,
    [notificationId],
  );
  return row ?? null;
}

async function sendAlertWebhook(job: RunningJob): Promise<{ detail: string }> {
  const { notificationId } = payloadSchema.parse(job.payload);
  const db = await database();
  const pending = await webhookOfNotification(db, notificationId);
  if (!pending) return { detail: "Not sent: the notification or its rule was deleted." };
  const definition = alertRuleInputSchema.parse(pending.definition);
  if (!definition.webhookUrl) return { detail: "Not sent: the rule no longer has a webhook." };
  const { allowPrivate, timeoutMs } = settings().webhooks;
  const link = `${publicOrigin()}/stores/${encodeURIComponent(pending.storeUrl)}/alerts/${pending.ruleId}`;
  const url = definition.webhookUrl;
  const outcome = await deliverWebhook(
    {
      url,
      secret: pending.webhookSecret,
      deliveryId: notificationId,
      body: slackBody(alertMessageSchema.parse(pending.body), link),
      timeoutMs,
      allowPrivate,
      signal: job.signal,
    },
    (attempt, result) =>
      recordWebhookAttempt(
        db,
        {
          notificationId,
          url,
          attempt,
          outcome: result.outcome,
          status: "status" in result ? result.status : undefined,
          detail: "detail" in result ? result.detail : undefined,
        },
        new Date(),
      ),
  );
  return { detail: outcome.outcome === "sent" ? "Webhook sent" : `Webhook ${outcome.outcome.replace("_", " ")}: ${outcome.detail}` };
}

export function registerAlertWebhookJob(): void {
  // The retries are deliverWebhook's own (each recorded); the job itself runs once.
  registerJob(WEBHOOK, sendAlertWebhook, { maxAttempts: 1 });
}
