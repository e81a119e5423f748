import { z } from "zod";
import { contextSchema } from "./context";

/** What GET and POST /api/session answer: the session without its key, and after sign-in the context. */
export const sessionSummarySchema = z.strictObject({
  organizationId: z.string().optional(),
  user: z.strictObject({ name: z.string(), email: z.string() }),
  expiresAt: z.number(),
});
export type SessionSummaryView = z.infer<typeof sessionSummarySchema>;

export const sessionResponseSchema = z.strictObject({
  session: sessionSummarySchema,
  context: contextSchema.optional(),
});

const organizationIdField = z
  .string()
  .trim()
  .max(200, "This is too long to be an organization ID.")
  .optional()
  .transform((value) => (value ? value : undefined));

/** Sign-in with a typed key. */
export const keySignInSchema = z.strictObject({
  apiKey: z.string().trim().min(1, "Enter an API key.").max(512, "This is too long to be an API key."),
  organizationId: organizationIdField,
});

/** Sign-in with one of the demo upstream's keys, named by id so that the key never reaches the browser. */
export const demoSignInSchema = z.strictObject({
  demoKeyId: z.string().min(1).max(64),
  organizationId: organizationIdField,
});

export const signInRequestSchema = z.union([keySignInSchema, demoSignInSchema]);
export type SignInRequest = z.input<typeof signInRequestSchema>;

/** A demo key as the sign-in page lists it: label and state, never the key. */
export const demoKeyOptionSchema = z.strictObject({ id: z.string(), label: z.string(), state: z.string() });
export type DemoKeyOption = z.infer<typeof demoKeyOptionSchema>;
