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
});
export type DeliveryItem = z.infer<typeof deliverySchema>;

export const runsSchema = z.strictObject({ stores: reachStoresSchema, runs: z.array(runSchema), deliveries: z.array(deliverySchema) });

/** The Outbox: every message that would have been sent, rendered (no SMTP_URL is set). */
const outboxMessageSchema = deliverySchema.extend({ html: z.string(), text: z.string(), headers: z.record(z.string(), z.string()) });
export const outboxSchema = z.strictObject({ smtp: z.boolean(), stores: reachStoresSchema, messages: z.array(outboxMessageSchema) });
