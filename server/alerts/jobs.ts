import "server-only";
import { settings } from "@/server/config/settings";
import { listRulesToCheck, type StoredRule } from "@/server/db/alert-rules";
import { database, type Db } from "@/server/db/database";
import { acrossStores, inReach } from "@/server/db/reach";
import { publicOrigin } from "@/server/delivery/mail";
import { GrantKeyMissing, grantedUpstream, GrantUnusable } from "@/server/grants/granted-upstream";
import { grantInForce } from "@/server/grants/store";
import { registerJob, scheduleRecurring } from "@/server/jobs/queue";
import type { UpstreamClient } from "@/server/upstream/client";
import { runAlertChecks } from "./runner";
import { enqueueAlertEmail, registerAlertEmailJob } from "./email-job";
import { enqueueAlertWebhook, registerAlertWebhookJob } from "./webhook-job";

/**
 * Alert checks while nobody is signed in: every few minutes one instance (the queue's schedule
 * runs each slot once) checks every rule, reading through its author's grant for the store; a
 * rule whose author granted nothing (or whose grant ended) waits for "Check now" or a grant.
 */
const CHECK = "alerts.check";
const CHECK_EVERY_MS = 5 * 60_000;

/**
 * A read client per rule, through its author's grant in force for the store; `keyMissing`
 * counts the rules whose grant waits on a master key DELEGATION_KEY lacks (a configuration problem).
 */
async function grantedClients(
  rules: readonly StoredRule[],
  now: Date,
): Promise<{ clients: Map<string, UpstreamClient>; keyMissing: number }> {
  const db = await database();
  const byGrant = new Map<string, UpstreamClient | "key_missing" | null>();
  const clients = new Map<string, UpstreamClient>();
  let keyMissing = 0;
  for (const rule of rules) {
    const grantId = await grantInForce(
      db,
      { organizationId: rule.organizationId, storeUrl: rule.storeUrl, ownerEmail: rule.createdByEmail },
      now,
    );
    if (!grantId) continue;
    if (!byGrant.has(grantId)) {
      try {
        byGrant.set(grantId, (await grantedUpstream(grantId)).upstream);
      } catch (error) {
        if (error instanceof GrantKeyMissing) byGrant.set(grantId, "key_missing");
        else if (error instanceof GrantUnusable) byGrant.set(grantId, null);
        else throw error;
      }
    }
    const client = byGrant.get(grantId);
    if (client === "key_missing") keyMissing += 1;
    else if (client) clients.set(rule.id, client);
  }
  return { clients, keyMissing };
}

/** Checks one store's rules, seeing and writing that store's rows only. */
function checkStore(db: Db, storeUrl: string, rules: StoredRule[], now: Date) {
  return inReach([storeUrl], async () => {
    const { clients, keyMissing } = await grantedClients(rules, now);
    const result = await runAlertChecks({
      db,
      rules: rules.filter((rule) => clients.has(rule.id)),
      upstreamFor: (rule) => clients.get(rule.id) ?? null,
      now,
      webhooks: settings().webhooks,
      appOrigin: publicOrigin(),
      enqueueEmail: enqueueAlertEmail,
      enqueueWebhook: enqueueAlertWebhook,
      // Every few minutes, but a daily rule is judged once a day and an hourly one once an hour.
      oncePerPeriod: true,
    });
    return { ...result, waiting: rules.length - clients.size - keyMissing, keyMissing };
  });
}

export async function checkEveryRule(): Promise<{ detail: string }> {
  const db = await database();
  const now = new Date();
  // The scan finds the rules of every store (a deliberate path across stores); each store is then checked in its own reach.
  const rules = await acrossStores(db, "alert scan: rules to check", (tx) => listRulesToCheck(tx));
  const byStore = new Map<string, StoredRule[]>();
  for (const rule of rules) byStore.set(rule.storeUrl, [...(byStore.get(rule.storeUrl) ?? []), rule]);
  const total = { checked: 0, fired: 0, resolved: 0, failed: 0, waiting: 0, alreadyJudged: 0, keyMissing: 0 };
  for (const [storeUrl, storeRules] of byStore) {
    const result = await checkStore(db, storeUrl, storeRules, now);
    for (const name of Object.keys(total) as (keyof typeof total)[]) total[name] += result[name];
  }
  return {
    detail:
      `${total.checked} rules checked: ${total.fired} fired, ${total.resolved} resolved, ${total.failed} failed; ${total.waiting} without a grant in force` +
      (total.alreadyJudged > 0 ? `; ${total.alreadyJudged} already judged for their last complete period` : "") +
      (total.keyMissing > 0
        ? `; ${total.keyMissing} not checked because of a configuration problem: their grant's master key is not in DELEGATION_KEY`
        : ""),
  };
}

export function registerAlertJobs(): void {
  registerJob(CHECK, checkEveryRule, { maxAttempts: 1 });
  registerAlertWebhookJob();
  registerAlertEmailJob();
  scheduleRecurring(CHECK, CHECK_EVERY_MS);
}
