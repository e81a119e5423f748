import { z } from "zod";
import { auditTargetSchema } from "./activity";
import { cloneCampaignRequestSchema } from "./campaign-clone";

/**
 * The clone a session sent for a store, with its Idempotency-Key and where it stands (from its idempotency record):
 * - `not_sent`: no request with its key reached the action yet; sending now with the same key is safe;
 * - `sending`: running; `succeeded` / `failed`: the upstream's definitive answer;
 * - `unknown`: sent without a readable answer: it may or may not exist.
 */
const cloneAttemptStatuses = ["not_sent", "sending", "succeeded", "failed", "unknown"] as const;

const uuidSchema = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, "must be a UUID");

/** PUT /api/stores/{storeUrl}/clone-attempt: what was reviewed, and the key it goes out with. */
export const newCloneAttemptSchema = z.strictObject({
  request: cloneCampaignRequestSchema,
  idempotencyKey: uuidSchema,
});

const cloneAttemptSchema = z.strictObject({
  request: cloneCampaignRequestSchema,
  idempotencyKey: z.string(),
  createdAt: z.string(),
  status: z.enum(cloneAttemptStatuses),
  /** The upstream's answer when it is definitive: its status and body as it came. */
  answer: z.strictObject({ status: z.number().int(), body: z.string(), requestId: z.string().nullable() }).nullable(),
  /** The attempt's Activity entry, once it has one. */
  auditId: z.string().nullable(),
  target: auditTargetSchema.nullable(),
});
export type CloneAttempt = z.infer<typeof cloneAttemptSchema>;

export const cloneAttemptResponseSchema = z.strictObject({ attempt: cloneAttemptSchema.nullable() });

/** GET /api/stores/{storeUrl}/clone-duplicates: the same clone, made or left unknown in the organization in the last 24 hours. */
export const cloneDuplicatesQuerySchema = z.strictObject({
  adAccountId: z.string().min(1).max(200),
  sourceCampaignGroupId: z.string().min(1).max(200),
  name: z.string().min(1).max(255),
});

const cloneDuplicateSchema = z.strictObject({
  auditId: z.string(),
  at: z.string(),
  userEmail: z.string(),
  outcome: z.enum(["succeeded", "unknown"]),
  newGroupId: z.string().nullable(),
});
export type CloneDuplicate = z.infer<typeof cloneDuplicateSchema>;

export const cloneDuplicatesResponseSchema = z.strictObject({ duplicates: z.array(cloneDuplicateSchema) });
