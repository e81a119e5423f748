import { z } from "zod";

/**
 * One line of the dashboard's change history, as the server keeps it and the Activity page
 * reads it. Shared by both, so this module stays free of server-only code. It names who,
 * where, what and how it ended; never the API key or the Idempotency-Key.
 */
export const auditActions = ["tracking-connection.remove", "campaign-group.clone"] as const;
export type AuditAction = (typeof auditActions)[number];

export const auditEntrySchema = z.strictObject({
  id: z.string(),
  /** ISO 8601 time the action finished. */
  at: z.string(),
  userEmail: z.string(),
  organizationId: z.string().nullable(),
  storeUrl: z.string(),
  action: z.enum(auditActions),
  /** What the action was aimed at: the connection, or the ad account and source campaign group. */
  targetIds: z.array(z.string()),
  /** What the action created (the cloned campaign group), when it created something. */
  resultIds: z.array(z.string()),
  outcome: z.enum(["succeeded", "failed"]),
  status: z.number().int(),
  upstreamRequestId: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** GET /api/activity */
export const activityResponseSchema = z.strictObject({ entries: z.array(auditEntrySchema) });
export type ActivityResponse = z.infer<typeof activityResponseSchema>;
