import "server-only";
import {
  alertRuleInputSchema,
  muteSchema,
  snoozeSchema,
  type AlertRule,
  type AlertRuleInput,
  type Backtest,
  type CheckResult,
} from "@/shared/schemas/alert";
import { LIMITS } from "@/shared/limits";
import { storedViewSearch } from "@/shared/schemas/saved-view";
import { backtestRule } from "@/server/alerts/check";
import { alertRollups, RunReads } from "@/server/alerts/reads";
import { enqueueAlertEmail } from "@/server/alerts/email-job";
import { runAlertChecks } from "@/server/alerts/runner";
import { standardWebhookSecret } from "@/server/alerts/webhook";
import { enqueueAlertWebhook } from "@/server/alerts/webhook-job";
import { settings } from "@/server/config/settings";
import { createRule, deleteRule, getRule, listEpisodes, listRules, setRuleQuiet, updateRule, type StoredRule } from "@/server/alerts/rules";
import { appendChange } from "@/server/audit/audit";
import { database, type Db } from "@/server/db/database";
import { underStoreCap } from "@/server/db/store-cap";
import { findView } from "@/server/saved-views/repository";
import type { ActiveSession } from "@/server/auth/require-session";
import { changeBy, isOrganizationAdmin, notYours, samePerson } from "@/server/grants/ownership";
import { ACTION_BODY_LIMIT, route } from "@/server/http/pipeline";
import type { VerifiedScope } from "@/server/http/scope";
import { DashboardError, jsonResponse } from "@/server/http/responses";
import type { UpstreamClient } from "@/server/upstream/client";

const COLLECTION = "/api/stores/[storeUrl]/alerts";
const ONE = "/api/stores/[storeUrl]/alerts/[id]";
const body = { schema: alertRuleInputSchema, maxBytes: ACTION_BODY_LIMIT };

const gone = () => new DashboardError(404, "not_found", "This alert rule no longer exists.");
const storeOf = (scope: VerifiedScope) => ({ organizationId: scope.organizationId!, storeUrl: scope.store!.url });

/** A rule as `viewer` sees it: the webhook's signing secret is shown to its owner only. */
function item(rule: StoredRule, viewer: string): AlertRule {
  return {
    ...alertRuleInputSchema.parse(rule.definition),
    id: rule.id,
    muted: rule.muted,
    snoozedUntil: rule.snoozedUntil?.toISOString() ?? null,
    snoozed: rule.snoozedUntil !== null && rule.snoozedUntil.getTime() > Date.now(),
    state: rule.state,
    lastCheckedAt: rule.lastCheckedAt?.toISOString() ?? null,
    createdByEmail: rule.createdByEmail,
    createdAt: rule.createdAt.toISOString(),
    updatedAt: rule.updatedAt.toISOString(),
    deletedViewName: rule.deletedViewName,
    webhookSecret: samePerson(rule.createdByEmail, viewer) ? rule.webhookSecret : null,
    standardWebhookSecret: samePerson(rule.createdByEmail, viewer) ? standardWebhookSecret(rule.webhookSecret) : null,
  };
}

/** The rule, if the signed-in person owns it (its checks read and send through their grant). */
async function ownRule(scope: VerifiedScope, id: string, viewer: string, action: string): Promise<StoredRule> {
  const rule = await getRule(await database(), storeOf(scope), id);
  if (!rule) throw gone();
  if (!samePerson(rule.createdByEmail, viewer)) throw notYours(rule.createdByEmail, action);
  return rule;
}

/** The rule, if the signed-in person owns it or is an admin of the organization (who may pause it). */
async function pausableRule(scope: VerifiedScope, id: string, viewer: string, upstream: UpstreamClient): Promise<StoredRule> {
  const rule = await getRule(await database(), storeOf(scope), id);
  if (!rule) throw gone();
  if (!samePerson(rule.createdByEmail, viewer) && !(await isOrganizationAdmin(upstream, scope.organizationId!)))
    throw new DashboardError(
      403,
      "forbidden",
      `Only ${rule.createdByEmail}, whose grant this alert rule runs through, or an admin of the organization may mute or snooze it.`,
    );
  return rule;
}

const nameOf = (rule: StoredRule) => alertRuleInputSchema.parse(rule.definition).name;

/** What a change touched, in words for the Activity page. */
function whatChanged(before: AlertRuleInput, after: AlertRuleInput): string {
  const differs = (key: keyof AlertRuleInput) => JSON.stringify(before[key]) !== JSON.stringify(after[key]);
  const parts = [
    differs("name") && "name",
    (["metric", "target", "savedViewId", "granularity", "condition"] as const).some(differs) && "what it reads and how it judges",
    differs("emails") && "e-mail addresses",
    differs("webhookUrl") && "webhook",
  ].filter((part): part is string => typeof part === "string");
  return parts.length ? `Changed: ${parts.join(", ")}` : "Saved without changes";
}

/** A mute or snooze, with its Activity line, in one transaction. */
function paused(
  scope: VerifiedScope,
  session: ActiveSession,
  key: { label: string },
  requestId: string,
  change: string,
  set: (tx: Db) => Promise<StoredRule | null>,
): Promise<StoredRule> {
  return database().then((db) =>
    db.transaction(async (tx) => {
      const rule = await set(tx);
      if (!rule) throw gone();
      await appendChange(tx, changeBy(scope, session, requestId, key), "alert-rule.pause", {
        ruleId: rule.id,
        ruleName: nameOf(rule),
        change,
      });
      return rule;
    }),
  );
}

/** A rule may only narrow itself by a saved view of its own store. */
async function savedViewSearchOf(scope: VerifiedScope, input: AlertRuleInput): Promise<string | null> {
  if (!input.savedViewId) return null;
  const view = await findView(await database(), scope.organizationId!, scope.store!.url, input.savedViewId);
  if (!view) throw new DashboardError(400, "bad_request", "The saved view of this rule does not exist in this store.");
  return storedViewSearch(view.view);
}

/** GET /api/stores/{storeUrl}/alerts */
export const listAlertRules = route({ methods: ["GET"], path: COLLECTION, scope: "store" }, async ({ scope, session, requestId }) => {
  const rules = await listRules(await database(), storeOf(scope));
  return jsonResponse({ rules: rules.map((rule) => item(rule, session.data.user.email)) }, { requestId });
});

/** POST /api/stores/{storeUrl}/alerts */
export const createAlertRule = route(
  { methods: ["POST"], path: COLLECTION, scope: "store", body },
  async ({ scope, session, key, body: input, requestId }) => {
    await savedViewSearchOf(scope, input);
    const rule = await (
      await database()
    ).transaction(async (tx) => {
      // Counted in the transaction that inserts, concurrent creations taking turns: the cap holds.
      if (!(await underStoreCap(tx, "alert_rules", scope.store!.url, LIMITS.rulesPerStore)))
        throw new DashboardError(
          409,
          "limit_reached",
          `A store holds at most ${LIMITS.rulesPerStore} alert rules. Delete one before adding another.`,
        );
      const created = await createRule(tx, storeOf(scope), input, session.data.user.email, new Date());
      await appendChange(tx, changeBy(scope, session, requestId, key), "alert-rule.create", { ruleId: created.id, ruleName: input.name });
      return created;
    });
    return jsonResponse(item(rule, session.data.user.email), { status: 201, requestId });
  },
);

/** GET /api/stores/{storeUrl}/alerts/{id} */
export const getAlertRule = route({ methods: ["GET"], path: ONE, scope: "store" }, async ({ scope, session, params, requestId }) => {
  const db = await database();
  const rule = await getRule(db, storeOf(scope), params.id!);
  if (!rule) throw gone();
  // Its episodes, read only once the rule is found in this store: the rule's own page shows their history.
  const episodes = (await listEpisodes(db, rule.id)).map((episode) => ({
    openedPeriod: episode.openedPeriod,
    openedAt: new Date(episode.openedAt).toISOString(),
    value: episode.value,
    baseline: episode.baseline,
    resolvedPeriod: episode.resolvedPeriod,
    resolvedAt: episode.resolvedAt ? new Date(episode.resolvedAt).toISOString() : null,
  }));
  return jsonResponse({ ...item(rule, session.data.user.email), episodes }, { requestId });
});

/** PUT /api/stores/{storeUrl}/alerts/{id}: replaces the rule's definition (its episode and state stay); its owner only. */
export const updateAlertRule = route(
  { methods: ["PUT"], path: ONE, scope: "store", body },
  async ({ scope, session, key, params, body: input, requestId }) => {
    const viewer = session.data.user.email;
    const before = await ownRule(scope, params.id!, viewer, "change what this alert rule reads and where it sends");
    await savedViewSearchOf(scope, input);
    const rule = await (
      await database()
    ).transaction(async (tx) => {
      const updated = await updateRule(tx, storeOf(scope), params.id!, input, new Date());
      if (!updated) throw gone();
      const target = {
        ruleId: updated.id,
        ruleName: input.name,
        change: whatChanged(alertRuleInputSchema.parse(before.definition), input),
      };
      await appendChange(tx, changeBy(scope, session, requestId, key), "alert-rule.change", target);
      return updated;
    });
    return jsonResponse(item(rule, viewer), { requestId });
  },
);

/** DELETE /api/stores/{storeUrl}/alerts/{id}: its owner only. */
export const deleteAlertRule = route(
  { methods: ["DELETE"], path: ONE, scope: "store" },
  async ({ scope, session, key, params, requestId }) => {
    const rule = await ownRule(scope, params.id!, session.data.user.email, "delete this alert rule");
    await (
      await database()
    ).transaction(async (tx) => {
      if (!(await deleteRule(tx, storeOf(scope), params.id!, new Date()))) throw gone();
      await appendChange(tx, changeBy(scope, session, requestId, key), "alert-rule.delete", { ruleId: rule.id, ruleName: nameOf(rule) });
    });
    return jsonResponse({ ok: true }, { requestId });
  },
);

/** POST /api/stores/{storeUrl}/alerts/{id}/snooze: `{ minutes }` from now; 0 ends it. */
export const snoozeAlertRule = route(
  { methods: ["POST"], path: `${ONE}/snooze`, scope: "store", body: { schema: snoozeSchema, maxBytes: ACTION_BODY_LIMIT } },
  async ({ scope, session, key, upstream, params, body: { minutes }, requestId }) => {
    await pausableRule(scope, params.id!, session.data.user.email, upstream);
    const now = new Date();
    const until = minutes === 0 ? null : new Date(now.getTime() + minutes * 60_000);
    const rule = await paused(scope, session, key, requestId, minutes === 0 ? "snooze ended" : `snoozed for ${minutes} min`, (tx) =>
      setRuleQuiet(tx, storeOf(scope), params.id!, { snoozedUntil: until }, now),
    );
    return jsonResponse(item(rule, session.data.user.email), { requestId });
  },
);

/** POST /api/stores/{storeUrl}/alerts/{id}/mute: `{ muted }`. */
export const muteAlertRule = route(
  { methods: ["POST"], path: `${ONE}/mute`, scope: "store", body: { schema: muteSchema, maxBytes: ACTION_BODY_LIMIT } },
  async ({ scope, session, key, upstream, params, body: { muted }, requestId }) => {
    await pausableRule(scope, params.id!, session.data.user.email, upstream);
    const rule = await paused(scope, session, key, requestId, muted ? "muted" : "unmuted", (tx) =>
      setRuleQuiet(tx, storeOf(scope), params.id!, { muted }, new Date()),
    );
    return jsonResponse(item(rule, session.data.user.email), { requestId });
  },
);

/** POST /api/stores/{storeUrl}/alerts/backtest: how a rule (saved or not) would have judged the last 90 days. */
export const backtestAlertRule = route(
  { methods: ["POST"], path: `${COLLECTION}/backtest`, scope: "store", body },
  async ({ scope, upstream, body: input, requestId }) => {
    const savedViewSearch = await savedViewSearchOf(scope, input);
    const result: Backtest = await backtestRule(
      input,
      { upstream, reads: new RunReads(alertRollups(await database())), storeUrl: scope.store!.url, savedViewSearch },
      new Date(),
    );
    return jsonResponse(result, { requestId });
  },
);

/**
 * POST /api/stores/{storeUrl}/alerts/check: checks the store's rules now, with the signed-in
 * key (the same run the scheduled checks make with their owner's grant). It answers once the
 * rules are judged; their webhooks are queued, so a receiver's silence never holds the answer.
 */
export const checkAlertRules = route(
  { methods: ["POST"], path: `${COLLECTION}/check`, scope: "store" },
  async ({ scope, upstream, url, requestId }) => {
    const db = await database();
    const config = settings();
    const result = await runAlertChecks({
      db,
      rules: await listRules(db, storeOf(scope)),
      upstreamFor: () => upstream.with({ signal: undefined }),
      now: new Date(),
      webhooks: config.webhooks,
      appOrigin: config.appOrigin ?? url.origin,
      // E-mails and webhooks go to the queue: the answer comes once the rules are judged, however slow a receiver is.
      enqueueWebhook: enqueueAlertWebhook,
      enqueueEmail: enqueueAlertEmail,
    });
    const summary: CheckResult = { checked: result.checked, fired: result.fired, resolved: result.resolved, failed: result.failed };
    return jsonResponse(summary, { requestId });
  },
);
