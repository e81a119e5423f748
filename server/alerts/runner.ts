import "server-only";
import { alertRuleInputSchema, type AlertMessageInput, type AlertRuleInput, type CheckResult } from "@/shared/schemas/alert";
import { deletedViewWords } from "@/shared/paused-rule";
import { alertTitle, slackBody } from "@/shared/alert-message";
import { storedViewSearch } from "@/shared/schemas/saved-view";
import { markChecked, openEpisode, openEpisodeOf, resolveEpisode, type StoredRule } from "@/server/alerts/rules";
import type { Db } from "@/server/db/database";
import { addNotification, notePausedRule, recordWebhookAttempt, type Notification } from "@/server/alerts/notifications";
import { findView } from "@/server/saved-views/repository";
import { logException } from "@/server/observability/log";
import type { UpstreamClient } from "@/server/upstream/client";
import { checkRule, lastCompletePeriod, type RuleCheck } from "./check";
import { alertRollups, RunReads, type AlertRollups } from "./reads";
import { deliverWebhook, DEFAULT_BACKOFF_MS } from "./webhook";

interface AlertRunOptions {
  db: Db;
  rules: readonly StoredRule[];
  /** The read client a rule checks with (the signed-in session's, or its owner's grant); null: none, the rule is skipped. */
  upstreamFor: (rule: StoredRule) => UpstreamClient | null;
  now: Date;
  webhooks: { allowPrivate: boolean; timeoutMs: number; backoffMs?: readonly number[] };
  /** Where the rule's page lives, for links in webhooks (e.g. https://dash.example.com). */
  appOrigin?: string;
  /** Told each notification (e-mail delivery plugs in here). */
  onNotification?: (notification: Notification, rule: StoredRule, definition: AlertRuleInput) => Promise<void>;
  /** Told each rule that could not be checked (a grant's key refused with 401 ends the grant here). */
  onRuleError?: (rule: StoredRule, error: unknown) => Promise<void>;
  /**
   * Queues a notification's webhook in the transaction that records it (the background job posts
   * it). Without it the webhook is posted inline, with its retries, before the run goes on.
   */
  enqueueWebhook?: (db: Db, notificationId: string, rule: { organizationId: string; storeUrl: string }) => Promise<void>;
  /** Queues the notification's e-mails in the episode's transaction (server/alerts/email-job.ts); without it, onNotification sends after it. */
  enqueueEmail?: (db: Db, notificationId: string, rule: { organizationId: string; storeUrl: string }) => Promise<void>;
  /** Skips a rule whose last complete period was already judged (the scheduled check; "Check now" judges again). */
  oncePerPeriod?: boolean;
  /** Rules checked at once. */
  concurrency?: number;
  /** The day rollups daily rules read through; by default as the settings have them, on `db`. */
  rollups?: AlertRollups;
  /** A background run's signal: once aborted, no further rule is begun. */
  signal?: AbortSignal;
}

interface AlertRunResult extends CheckResult {
  notifications: Notification[];
  /** Rules skipped because their last complete period was already judged. */
  alreadyJudged: number;
}

const snoozed = (rule: StoredRule, now: Date) => rule.snoozedUntil !== null && rule.snoozedUntil > now;

/** The inbox notice of an episode's change, and its queued webhook and e-mails, in the caller's transaction. */
async function recordNotice(
  tx: Db,
  options: AlertRunOptions,
  rule: StoredRule,
  definition: AlertRuleInput,
  message: AlertMessageInput,
  episodeId: string,
): Promise<Notification> {
  const scope = { organizationId: rule.organizationId, storeUrl: rule.storeUrl };
  const notification = await addNotification(
    tx,
    scope,
    { ruleId: rule.id, episodeId, kind: message.kind, title: alertTitle(message), body: message },
    options.now,
  );
  if (definition.webhookUrl && options.enqueueWebhook) await options.enqueueWebhook(tx, notification.id, rule);
  if (definition.emails.length > 0 && options.enqueueEmail) await options.enqueueEmail(tx, notification.id, rule);
  return notification;
}

/** After the transaction: the inline webhook (when none is queued) and the e-mails. */
async function deliverNotice(
  options: AlertRunOptions,
  rule: StoredRule,
  definition: AlertRuleInput,
  message: AlertMessageInput,
  notification: Notification,
) {
  if (definition.webhookUrl && !options.enqueueWebhook) {
    const link = options.appOrigin ? `${options.appOrigin}/stores/${encodeURIComponent(rule.storeUrl)}/alerts/${rule.id}` : null;
    await deliverWebhook(
      {
        url: definition.webhookUrl,
        secret: rule.webhookSecret,
        deliveryId: notification.id,
        body: slackBody(message, link),
        timeoutMs: options.webhooks.timeoutMs,
        allowPrivate: options.webhooks.allowPrivate,
      },
      (attempt, result) =>
        recordWebhookAttempt(
          options.db,
          {
            notificationId: notification.id,
            url: definition.webhookUrl!,
            attempt,
            outcome: result.outcome,
            status: "status" in result ? result.status : undefined,
            detail: "detail" in result ? result.detail : undefined,
          },
          new Date(),
        ),
      options.webhooks.backoffMs ?? DEFAULT_BACKOFF_MS,
    );
  }
  if (!options.enqueueEmail) await options.onNotification?.(notification, rule, definition);
}

/**
 * Opens (or resolves) an episode and records its notice in one transaction, so an episode never
 * stands without its notice nor a notice without its episode; null when another check got there first.
 */
async function moveEpisode(
  options: AlertRunOptions,
  rule: StoredRule,
  definition: AlertRuleInput,
  message: AlertMessageInput,
  move: (tx: Db) => Promise<{ id: string } | null>,
): Promise<{ notification: Notification | null } | null> {
  const moved = await options.db.transaction(async (tx) => {
    const episode = await move(tx);
    if (!episode) return null;
    if (snoozed(rule, options.now)) return { notification: null };
    return { notification: await recordNotice(tx, options, rule, definition, message, episode.id) };
  });
  if (moved?.notification) await deliverNotice(options, rule, definition, message, moved.notification);
  return moved;
}

/**
 * One rule's turn: judge the last complete period, then move its episode. A rule that fires
 * with no open episode opens one and notifies once; while it keeps firing nothing more is sent;
 * the first period it no longer fires resolves the episode with a "resolved" notice. Muted rules
 * are not checked; snoozed ones keep their episodes but send nothing until the snooze ends.
 */
async function runRule(options: AlertRunOptions, rule: StoredRule, reads: RunReads, result: AlertRunResult) {
  const definition = alertRuleInputSchema.parse(rule.definition);
  const upstream = options.upstreamFor(rule);
  if (!upstream) {
    result.failed += 1;
    return;
  }
  if (options.oncePerPeriod && rule.lastJudgedPeriod !== null) {
    const { timezone } = await reads.profile(upstream, rule.storeUrl);
    if (lastCompletePeriod(definition.granularity, timezone, options.now) === rule.lastJudgedPeriod) {
      result.alreadyJudged += 1;
      return;
    }
  }
  const view = definition.savedViewId ? await findView(options.db, rule.organizationId, rule.storeUrl, definition.savedViewId) : null;
  // Never widened to the whole store behind its author's back: a rule whose view is gone is not judged.
  if (definition.savedViewId && !view) {
    // Said once in the store's inbox (the rule's page and the alerts list say it too).
    const name = rule.deletedViewName ?? "";
    await notePausedRule(
      options.db,
      rule,
      { id: definition.savedViewId, name },
      `“${definition.name}”: ${deletedViewWords(name)} Choose another saved view or the whole store to resume it.`,
      options.now,
    );
    throw new Error("Its saved view was deleted: the rule is not checked until it names another view.");
  }
  const check: RuleCheck = await checkRule(
    definition,
    { upstream, reads, storeUrl: rule.storeUrl, savedViewSearch: view ? storedViewSearch(view.view) : null },
    options.now,
  );
  result.checked += 1;
  const message = (kind: AlertMessageInput["kind"]): AlertMessageInput => ({
    kind,
    ruleName: definition.name,
    metric: definition.metric,
    target: definition.target,
    period: check.period,
    value: check.value,
    baseline: check.baseline,
    currency: check.currency,
    whatMoved: check.whatMoved,
    rule:
      definition.condition.kind === "anomaly"
        ? { concern: definition.condition.direction, weeks: definition.condition.weeks }
        : { concern: definition.condition.operator === "above" ? "up" : "down" },
    ...(check.targetName ? { targetName: check.targetName } : {}),
  });
  const open = await openEpisodeOf(options.db, rule.id);
  if (check.fires && !open) {
    const moved = await moveEpisode(options, rule, definition, message("alert_fired"), (tx) =>
      openEpisode(tx, rule.id, check, options.now),
    );
    if (moved) result.fired += 1;
    if (moved?.notification) result.notifications.push(moved.notification);
  } else if (!check.fires && open && !check.quiet) {
    const moved = await moveEpisode(options, rule, definition, message("alert_resolved"), (tx) =>
      resolveEpisode(tx, rule.id, check.period, options.now),
    );
    if (moved) result.resolved += 1;
    if (moved?.notification) result.notifications.push(moved.notification);
  }
  await markChecked(options.db, rule.id, options.now, check.period);
}

/**
 * Checks every rule given, sharing identical upstream reads within the run. A rule that fails
 * (upstream down, key refused) is counted and logged; the others go on.
 */
export async function runAlertChecks(options: AlertRunOptions): Promise<AlertRunResult> {
  const reads = new RunReads(options.rollups === undefined ? alertRollups(options.db) : options.rollups);
  const result: AlertRunResult = { checked: 0, fired: 0, resolved: 0, failed: 0, alreadyJudged: 0, notifications: [] };
  const queue = options.rules.filter((rule) => !rule.muted);
  const workers = Array.from({ length: Math.min(options.concurrency ?? 8, queue.length) }, async () => {
    for (let rule = queue.shift(); rule && !options.signal?.aborted; rule = queue.shift()) {
      try {
        await runRule(options, rule, reads, result);
      } catch (error) {
        result.failed += 1;
        logException("alert-check", `alert rule ${rule.id}`, error);
        await options
          .onRuleError?.(rule, error)
          .catch((hookError: unknown) => logException("alert-check", `alert rule ${rule.id}`, hookError));
      }
    }
  });
  await Promise.all(workers);
  return result;
}
