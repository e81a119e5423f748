import "server-only";
import { settings } from "@/server/config/settings";
import { listRulesToCheck, type StoredRule } from "@/server/alerts/rules";
import { z } from "zod";
import { database } from "@/server/db/database";
import { acrossStores, inReach } from "@/server/db/reach";
import { publicOrigin } from "@/server/delivery/mail";
import { GrantKeyMissing, grantedUpstream, GrantUnusable } from "@/server/grants/granted-upstream";
import { grantInForce } from "@/server/grants/store";
import { enqueue, registerJob, scheduleRecurring, type RunningJob } from "@/server/jobs/queue";
import type { UpstreamClient } from "@/server/upstream/client";
import { runAlertChecks } from "./runner";
import { enqueueAlertEmail, registerAlertEmailJob } from "./email-job";
import { enqueueAlertWebhook, registerAlertWebhookJob } from "./webhook-job";

/**
 * Alert checks while nobody is signed in: every few minutes one instance (the queue's schedule
 * runs each slot once) queues a check of each store, which reads through each rule's author's
 * grant for the store; a rule whose author granted nothing (or whose grant ended) waits for
 * "Check now" or a grant.
 */
const PLAN = "alerts.check";
const CHECK_STORE = "alerts.check-store";
const CHECK_EVERY_MS = 5 * 60_000;

/**
 * A read client per rule, through its author's grant in force for the store; `keyMissing`
 * counts the rules whose grant waits on a master key DELEGATION_KEY lacks (a configuration problem).
 */
async function grantedClients(
  rules: readonly StoredRule[],
  now: Date,
  signal?: AbortSignal,
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
        byGrant.set(grantId, (await grantedUpstream(grantId, { signal })).upstream);
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

const storeCheckPayload = z.object({ organizationId: z.string(), storeUrl: z.string() });

/**
 * One store's rules, as a job of that store (its tenant, its reach): the rules its reach shows,
 * each read through its author's grant. The job's signal reaches every upstream read, and no
 * rule is begun once it is aborted.
 */
export function checkStoreRules(store: z.infer<typeof storeCheckPayload>, signal?: AbortSignal): Promise<{ detail: string }> {
  return inReach([store.storeUrl], () => checkInReach(store.organizationId, signal));
}

async function checkInReach(organizationId: string, signal?: AbortSignal): Promise<{ detail: string }> {
  const db = await database();
  const now = new Date();
  const rules = (await listRulesToCheck(db)).filter((rule) => rule.organizationId === organizationId);
  const { clients, keyMissing } = await grantedClients(rules, now, signal);
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
    signal,
  });
  signal?.throwIfAborted();
  const waiting = rules.length - clients.size - keyMissing;
  return {
    detail:
      `${result.checked} rules checked: ${result.fired} fired, ${result.resolved} resolved, ${result.failed} failed; ${waiting} without a grant in force` +
      (result.alreadyJudged > 0 ? `; ${result.alreadyJudged} already judged for their last complete period` : "") +
      (keyMissing > 0
        ? `; ${keyMissing} not checked because of a configuration problem: their grant's master key is not in DELEGATION_KEY`
        : ""),
  };
}

/**
 * The scheduled planner: one check job per store with rules to check, under that store's
 * organization, so that the fairness across tenants holds for the checks as for Send now. A
 * store whose previous check has not started yet is not queued again.
 */
async function planStoreChecks(job: RunningJob): Promise<{ detail: string }> {
  const stores = await acrossStores(await database(), "alert scan: stores with rules to check", async (tx) => {
    const due = await tx.query<z.infer<typeof storeCheckPayload>>(
      `select distinct r.organization_id as "organizationId", r.store_url as "storeUrl" from alert_rules r
       where r.deleted_at is null and not r.muted
         and not exists (select 1 from jobs j where j.name = $1 and j.store_url = r.store_url and j.state = 'queued')`,
      [CHECK_STORE],
    );
    for (const store of due)
      await enqueue(CHECK_STORE, store, {
        ...store,
        uniqueKey: `${CHECK_STORE}:${store.storeUrl}:${store.organizationId}:${job.id}`,
        db: tx,
      });
    return due.length;
  });
  return { detail: `${stores} store${stores === 1 ? "" : "s"} to check` };
}

export function registerAlertJobs(): void {
  registerJob(PLAN, planStoreChecks, { maxAttempts: 1 });
  // A store's check every five minutes: its runs are kept a day, not the usual 30.
  registerJob(CHECK_STORE, (job) => checkStoreRules(storeCheckPayload.parse(job.payload), job.signal), { maxAttempts: 1, keepRunsDays: 1 });
  registerAlertWebhookJob();
  registerAlertEmailJob();
  scheduleRecurring(PLAN, CHECK_EVERY_MS);
}
