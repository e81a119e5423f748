import { z } from "zod";
import { reachStoresSchema } from "./reach";
import { dashboardDateSchema } from "./common";

/** One line of the change history (server and Activity page share it, so no server-only code here); never the API or Idempotency key. */
const upstreamActions = ["tracking-connection.remove", "campaign-group.clone"] as const;
/** Changes to the dashboard's own alert rules and digests: who made each, and on what. */
const changeActions = [
  "alert-rule.create",
  "alert-rule.change",
  "alert-rule.delete",
  "alert-rule.pause",
  "digest.create",
  "digest.change",
  "digest.delete",
  "digest.send-now",
  "delivery.send-again",
  "delivery.arrived",
] as const;
export const auditActions = [...upstreamActions, ...changeActions] as const;
export type AuditAction = (typeof auditActions)[number];
export type ChangeAction = (typeof changeActions)[number];

/** Whether an action went to the analytics service (a guarded action), not a change of the dashboard's own. */
export function isUpstreamAction(action: AuditAction): action is (typeof upstreamActions)[number] {
  return (upstreamActions as readonly string[]).includes(action);
}

/** How an action ended: `succeeded`/`failed` definitive; `not_done` never ran; `unknown` sent without a readable answer. */
export const auditOutcomes = ["succeeded", "failed", "not_done", "unknown"] as const;
export type AuditOutcome = (typeof auditOutcomes)[number];

/** What an action was aimed at, with the names known at the time (they may change or vanish later). */
export const auditTargetSchema = z.strictObject({
  connectionId: z.string().optional(),
  connectionName: z.string().optional(),
  channel: z.string().optional(),
  adAccountId: z.string().optional(),
  adAccountName: z.string().optional(),
  sourceCampaignGroupId: z.string().optional(),
  sourceCampaignGroupName: z.string().optional(),
  newGroupName: z.string().optional(),
  /** The cloned campaign group, once the upstream named it. */
  newGroupId: z.string().optional(),
  /** An alert rule or digest, and what changed ("muted", "snoozed for 60 min", "e-mails and webhook"). */
  ruleId: z.string().optional(),
  ruleName: z.string().optional(),
  digestId: z.string().optional(),
  viewName: z.string().optional(),
  change: z.string().optional(),
});
export type AuditTarget = z.infer<typeof auditTargetSchema>;

export const auditEntrySchema = z.strictObject({
  id: z.string(),
  /** ISO 8601 time the action finished (or was found unfinished). */
  at: z.string(),
  userEmail: z.string(),
  /** Which key of the person's ring acted: a short label, never the key (null for entries from before the ring). */
  keyLabel: z.string().nullable().optional(),
  organizationId: z.string().nullable(),
  storeUrl: z.string(),
  action: z.enum(auditActions),
  target: auditTargetSchema,
  /** The target's IDs alone: the connection, or the ad account and source campaign group. */
  targetIds: z.array(z.string()),
  /** What the action created (the cloned campaign group), when it created something. */
  resultIds: z.array(z.string()),
  outcome: z.enum(auditOutcomes),
  /** The upstream's status; null when no answer came. */
  status: z.number().int().nullable(),
  /** The dashboard's request id, and the upstream's. */
  requestId: z.string().nullable(),
  upstreamRequestId: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** GET /api/activity: one page, newest first; `nextCursor` asks for the page after it. */
export const activityResponseSchema = z.strictObject({
  stores: reachStoresSchema,
  entries: z.array(auditEntrySchema),
  nextCursor: z.string().nullable(),
});
export type ActivityResponse = z.infer<typeof activityResponseSchema>;

/** The Activity page's filters, kept in its URL and sent as the query of GET /api/activity and its CSV export. */
export const activityFiltersSchema = z.strictObject({
  action: z.enum(auditActions).optional(),
  outcome: z.enum(auditOutcomes).optional(),
  store: z.string().trim().min(1).max(300).optional(),
  person: z.string().trim().min(1).max(320).optional(),
  /** First and last day shown, both included, in UTC. */
  from: dashboardDateSchema.optional(),
  to: dashboardDateSchema.optional(),
});
export type ActivityFilters = z.infer<typeof activityFiltersSchema>;

/** `entry` asks for one entry by its id (the link from an action's notice); `before` for the page after a cursor. */
export const activityQuerySchema = activityFiltersSchema.extend({
  before: z.string().max(200).optional(),
  entry: z.string().max(100).optional(),
});
