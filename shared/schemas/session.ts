import { z } from "zod";
import { auditActions } from "./activity";
import { contextSchema } from "./context";

/** At most this many stores are kept in the session summary, so the cookie stays small. */
export const SESSION_STORES_LIMIT = 20;

/** A session holds at most this many keys (its key ring): the one it signed in with and 19 more. */
export const RING_LIMIT = 20;

/** A key of the ring as the browser sees it: a short label and its stores, never the key. */
const ringKeyViewSchema = z.strictObject({
  label: z.string(),
  organization: z.strictObject({ id: z.string(), name: z.string() }).optional(),
  storeUrls: z.array(z.string()),
});
export type RingKeyView = z.infer<typeof ringKeyViewSchema>;

/** What GET and POST /api/session answer: the session without its key, and after sign-in the whole context. */
export const sessionSummarySchema = z.strictObject({
  organizationId: z.string().optional(),
  organization: z.strictObject({ id: z.string(), name: z.string() }).optional(),
  stores: z.array(z.strictObject({ url: z.string(), type: z.string(), currency: z.string() })).max(SESSION_STORES_LIMIT),
  user: z.strictObject({ name: z.string(), email: z.string() }),
  expiresAt: z.number(),
  /** The keys of the ring, the signed-in one first. */
  keys: z.array(ringKeyViewSchema).max(RING_LIMIT).optional(),
});
export type SessionSummaryView = z.infer<typeof sessionSummarySchema>;

/** An action the upstream refused this API key with 403 (or its side-effect-free probe), remembered so pages can say so before anything is typed. */
export const keyRefusalSchema = z.strictObject({ action: z.enum(auditActions), message: z.string(), refusedAt: z.string() });
export type KeyRefusal = z.infer<typeof keyRefusalSchema>;

export const sessionResponseSchema = z.strictObject({
  session: sessionSummarySchema,
  context: contextSchema.optional(),
  refusals: z.array(keyRefusalSchema).optional(),
});

/** Both travel upstream in a header: visible ASCII only, so no value can break out of it. */
const headerSafe = /^[\x21-\x7e]*$/;

const organizationIdField = z
  .string()
  .trim()
  .max(200, "This is too long to be an organization ID.")
  .regex(headerSafe, "An organization ID has only letters, digits and punctuation, without spaces or line breaks.")
  .optional()
  .transform((value) => (value ? value : undefined));

/** Where a sign-in posted as a plain form goes next (checked again on the server). */
const nextField = z.string().max(2048).optional();

/** Sign-in with a typed key. */
export const keySignInSchema = z.strictObject({
  apiKey: z
    .string()
    .trim()
    .min(1, "Enter an API key.")
    .max(512, "This is too long to be an API key.")
    .regex(headerSafe, "An API key has only letters, digits and punctuation, without spaces or line breaks."),
  organizationId: organizationIdField,
  next: nextField,
});

/** Sign-in with one of the demo upstream's keys, named by id so that the key never reaches the browser. */
export const demoSignInSchema = z.strictObject({
  demoKeyId: z.string().min(1).max(64),
  organizationId: organizationIdField,
  next: nextField,
});

/** Adding a store to the ring: another store's key, typed or (demo) named. */
export const addKeySchema = z.union([keySignInSchema.omit({ organizationId: true }), demoSignInSchema.omit({ organizationId: true })]);

/** Removing a store from the ring: the store whose key leaves. */
export const removeKeySchema = z.strictObject({ storeUrl: z.string().min(1).max(2048), next: nextField });

export type SignInRequest = z.input<typeof keySignInSchema> | z.input<typeof demoSignInSchema>;

/** A demo key as the sign-in page lists it (handed from the server page to the form): label and state, never the key. */
export interface DemoKeyOption {
  id: string;
  label: string;
  state: string;
}
