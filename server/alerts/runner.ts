import "server-only";
import { alertRuleInputSchema, type AlertMessageInput, type AlertRuleInput, type CheckResult } from "@/shared/schemas/alert";
import { alertTitle, slackBody } from "@/shared/alert-message";
import { storedViewSearch } from "@/shared/schemas/saved-view";
import { markChecked, openEpisode, openEpisodeOf, resolveEpisode, type StoredRule } from "@/server/db/alert-rules";
import type { Db } from "@/server/db/database";
import { addNotification, recordWebhookAttempt, type Notification } from "@/server/db/notifications";
import { findView } from "@/server/db/saved-views";
import { logException } from "@/server/observability/log";
import type { UpstreamClient } from "@/server/upstream/client";
import { checkRule, type RuleCheck } from "./check";
import { RunReads } from "./reads";
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
  /** Rules checked at once. */
  concurrency?: number;
}

interface AlertRunResult extends CheckResult {
  notifications: Notification[];
}

const snoozed = (rule: StoredRule, now: Date) => rule.snoozedUntil !== null && rule.snoozedUntil > now;

async function notify(
  options: AlertRunOptions,
  rule: StoredRule,
  definition: AlertRuleInput,
  message: AlertMessageInput,
  episodeId: string,
) {
  const scope = { organizationId: rule.organizationId, storeUrl: rule.storeUrl };
  const notification = await addNotification(
    options.db,
    scope,
    { ruleId: rule.id, episodeId, kind: message.kind, title: alertTitle(message), body: message },
    options.now,
  );
  if (definition.webhookUrl) {
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
  await options.onNotification?.(notification, rule, definition);
  return notification;
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
  const view = definition.savedViewId ? await findView(options.db, rule.organizationId, rule.storeUrl, definition.savedViewId) : null;
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
    const episode = await openEpisode(options.db, rule.id, check, options.now);
    if (episode) {
      result.fired += 1;
      if (!snoozed(rule, options.now))
        result.notifications.push(await notify(options, rule, definition, message("alert_fired"), episode.id));
    }
  } else if (!check.fires && open && !check.quiet) {
    const episode = await resolveEpisode(options.db, rule.id, check.period, options.now);
    if (episode) {
      result.resolved += 1;
      if (!snoozed(rule, options.now))
        result.notifications.push(await notify(options, rule, definition, message("alert_resolved"), episode.id));
    }
  }
  await markChecked(options.db, rule.id, options.now);
}

/**
 * Checks every rule given, sharing identical upstream reads within the run. A rule that fails
 * (upstream down, key refused) is counted and logged; the others go on.
 */
export async function runAlertChecks(options: AlertRunOptions): Promise<AlertRunResult> {
  const reads = new RunReads();
  const result: AlertRunResult = { checked: 0, fired: 0, resolved: 0, failed: 0, notifications: [] };
  const queue = options.rules.filter((rule) => !rule.muted);
  const workers = Array.from({ length: Math.min(options.concurrency ?? 8, queue.length) }, async () => {
    for (let rule = queue.shift(); rule; rule = queue.shift()) {
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
