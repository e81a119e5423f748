import { z } from "zod";

/** A grant: its owner's consent to read one store's analytics, read-only, while nobody is signed in. Never carries the key. */
export const grantSchema = z.strictObject({
  id: z.string(),
  storeUrl: z.string(),
  ownerEmail: z.string(),
  /** Made by the signed-in key: only its owner can revoke it. */
  mine: z.boolean(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  expiresAt: z.string(),
  endedAt: z.string().nullable(),
  endedReason: z.enum(["revoked", "upstream_refused", "expired", "undecryptable"]).nullable(),
  /** Digest schedules that read through it. */
  dependents: z.number(),
});
export type GrantItem = z.infer<typeof grantSchema>;

const grantNoticeSchema = z.strictObject({ id: z.string(), storeUrl: z.string(), message: z.string(), createdAt: z.string() });

export const grantListSchema = z.strictObject({
  /** False in production without DELEGATION_KEY: nothing can be granted. */
  enabled: z.boolean(),
  grants: z.array(grantSchema),
  /** What the signed-in key's owner has been told about its grants (one ended by the upstream). */
  notices: z.array(grantNoticeSchema),
});

/** The consent is explicit: the body says so. */
export const newGrantSchema = z.strictObject({ consent: z.literal(true, "Tick the box to grant access.") });
