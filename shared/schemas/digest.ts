import { z } from "zod";
import { LIMITS } from "@/shared/limits";

/** A saved view sent by e-mail on a schedule, in the store's zone. */
const recipientsSchema = z
  .array(z.email("Each recipient must be an e-mail address.").max(254))
  .min(1, "Add at least one recipient.")
  .max(LIMITS.recipients, `A digest goes to at most ${LIMITS.recipients} addresses.`);

export const newDigestSchema = z
  .strictObject({
    savedViewId: z.string().regex(/^view_[0-9a-f-]{36}$/, "Choose a saved view."),
    cadence: z.enum(["daily", "weekly"]),
    /** ISO weekday, 1 = Monday; weekly only. */
    weekday: z.number().int().min(1).max(7).optional(),
    localTime: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Give a time as HH:MM."),
    recipients: recipientsSchema,
  })
  .refine((digest) => digest.cadence === "daily" || digest.weekday !== undefined, { message: "Choose the weekday.", path: ["weekday"] });
export type NewDigest = z.infer<typeof newDigestSchema>;

export const digestSchema = z.strictObject({
  id: z.string(),
  savedViewId: z.string(),
  viewName: z.string(),
  /** Its saved view was deleted: it sends nothing until the view is restored. */
  viewDeleted: z.boolean(),
  cadence: z.enum(["daily", "weekly"]),
  weekday: z.number().nullable(),
  localTime: z.string(),
  timeZone: z.string(),
  nextRunAt: z.string(),
  recipients: z.array(z.strictObject({ email: z.string(), unsubscribed: z.boolean() })),
  createdByEmail: z.string(),
  /** Whether the grant it reads through is still in force. */
  grantActive: z.boolean(),
});
export type DigestItem = z.infer<typeof digestSchema>;

export const digestListSchema = z.strictObject({ digests: z.array(digestSchema) });
/** Send now's answer: the queued run, and what the digest shows (its filters, range and comparison in words). */
export const digestSentSchema = z.strictObject({ jobId: z.string(), shows: z.string() });
