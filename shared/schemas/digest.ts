import { z } from "zod";
import { LIMITS } from "@/shared/limits";
import { RING_LIMIT } from "./session";

/** A saved view sent by e-mail on a schedule, in the store's zone. */
const recipientsSchema = z
  .array(z.email("Each recipient must be an e-mail address.").max(254))
  .min(1, "Add at least one recipient.")
  .max(LIMITS.recipients, `A digest goes to at most ${LIMITS.recipients} addresses.`);

const scheduleFields = {
  cadence: z.enum(["daily", "weekly"]),
  /** ISO weekday, 1 = Monday; weekly only. */
  weekday: z.number().int().min(1).max(7).optional(),
  localTime: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Give a time as HH:MM."),
  recipients: recipientsSchema,
};
const weekdayGiven: [(digest: { cadence: string; weekday?: number }) => boolean, { message: string; path: string[] }] = [
  (digest) => digest.cadence === "daily" || digest.weekday !== undefined,
  { message: "Choose the weekday.", path: ["weekday"] },
];

export const newDigestSchema = z
  .strictObject({ savedViewId: z.string().regex(/^view_[0-9a-f-]{36}$/, "Choose a saved view."), ...scheduleFields })
  .refine(...weekdayGiven);
/** A scheduled digest's change: its cadence, time and recipients (its view or stores stay). */
export const digestChangeSchema = z.strictObject(scheduleFields).refine(...weekdayGiven);
export type DigestChange = z.infer<typeof digestChangeSchema>;
/** A digest of the All stores table: the chosen stores of the reach, and the page's range and comparison. */
export const newPortfolioDigestSchema = z
  .strictObject({
    stores: z.array(z.string().min(1).max(500)).min(1, "Choose at least one store.").max(RING_LIMIT),
    search: z.string().max(500),
    ...scheduleFields,
  })
  .refine(...weekdayGiven);
export type NewPortfolioDigest = z.infer<typeof newPortfolioDigestSchema>;
export type NewDigest = z.infer<typeof newDigestSchema>;

export const digestSchema = z.strictObject({
  id: z.string(),
  /** Null for a digest of several stores. */
  savedViewId: z.string().nullable(),
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
  /** What it shows, in words: its filters and attribution (a digest of several stores: its range, each store's own days). */
  shows: z.string(),
  /** Whether the grant it reads through is still in force (a digest of several stores: any of theirs). */
  grantActive: z.boolean(),
  /** A digest of several stores: the store it is kept under, its stores, and those without their creator's grant in force. */
  portfolio: z.strictObject({ storeUrl: z.string(), stores: z.array(z.string()), withoutGrant: z.array(z.string()) }).optional(),
});
export type DigestItem = z.infer<typeof digestSchema>;

export const digestListSchema = z.strictObject({ digests: z.array(digestSchema) });
/** The digests of several stores in the reach, and the stores of the reach the signed-in person has granted. */
export const portfolioDigestListSchema = z.strictObject({ digests: z.array(digestSchema), granted: z.array(z.string()) });
/** Send now's answer: the queued run, and what the digest shows (its filters, range and comparison in words). */
export const digestSentSchema = z.strictObject({ jobId: z.string(), shows: z.string() });
