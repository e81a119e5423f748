import { z } from "zod";
import { reachStoresSchema } from "./reach";

/** The recent background runs and deliveries of the reach's stores: "why didn't I get my digest". */
const runSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  state: z.enum(["queued", "running", "done", "dead"]),
  attempts: z.number(),
  maxAttempts: z.number(),
  detail: z.string().nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  runAt: z.string(),
  storeUrl: z.string(),
});
export type RunItem = z.infer<typeof runSchema>;

const deliverySchema = z.strictObject({
  key: z.string(),
  storeUrl: z.string(),
  recipient: z.string(),
  subject: z.string(),
  channel: z.enum(["smtp", "outbox"]),
  outcome: z.enum(["sending", "sent", "not_sent", "unknown"]),
  detail: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** What the owner of an `unknown` message decided: sent again (under `resentKey`) or it arrived. */
  decision: z
    .strictObject({ kind: z.enum(["send_again", "arrived"]), by: z.string(), at: z.string(), resentKey: z.string().nullable() })
    .nullable(),
});
export type DeliveryItem = z.infer<typeof deliverySchema>;

/** An `unknown` message nobody decided about yet, with what is known and who may decide. */
const awaitingSchema = z.strictObject({
  key: z.string(),
  storeUrl: z.string(),
  recipient: z.string(),
  subject: z.string(),
  /** "Digest" or "Alert e-mail"; null when the key names neither. */
  sentBy: z.enum(["digest", "alert"]).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** What is known, in plain words. */
  known: z.string(),
  /** The ledger's own detail (the mail server's words), when there is one. */
  detail: z.string().nullable(),
  /** The owner of the grant it went out through; null when its digest or rule was deleted. */
  ownerEmail: z.string().nullable(),
  /** Whether the signed-in person may decide (they own that grant). */
  mayDecide: z.boolean(),
  /** False when the retention purge removed its body: it cannot be sent again. */
  bodyKept: z.boolean(),
});
export type AwaitingItem = z.infer<typeof awaitingSchema>;

export const runsSchema = z.strictObject({
  stores: reachStoresSchema,
  runs: z.array(runSchema),
  deliveries: z.array(deliverySchema),
  awaitingDecision: z.array(awaitingSchema),
});

/** A decision about an `unknown` message: POST /api/stores/{storeUrl}/deliveries/decisions, with an Idempotency-Key. */
export const deliveryDecisionSchema = z.strictObject({
  key: z.string().min(1).max(1000),
  decision: z.enum(["send_again", "arrived"]),
});

export const deliveryDecisionAnswerSchema = z.strictObject({
  key: z.string(),
  decision: z.enum(["send_again", "arrived"]),
  decidedBy: z.string(),
  decidedAt: z.string(),
  resentKey: z.string().nullable(),
});

/** The Outbox: every message that would have been sent, rendered (no SMTP_URL is set). */
const outboxMessageSchema = deliverySchema.extend({ html: z.string(), text: z.string(), headers: z.record(z.string(), z.string()) });
export const outboxSchema = z.strictObject({ smtp: z.boolean(), stores: reachStoresSchema, messages: z.array(outboxMessageSchema) });
