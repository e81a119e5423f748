import { z } from "zod";

/** A signed-in session of this key on the Sign-ins page; `id` is a public handle, the session's id never leaves the server. */
const sessionListItemSchema = z.strictObject({
  id: z.string(),
  userAgent: z.string(),
  clientAddress: z.string(),
  userEmail: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  current: z.boolean(),
});
export type SessionListItem = z.infer<typeof sessionListItemSchema>;

/** GET /api/sessions */
export const sessionListSchema = z.strictObject({ sessions: z.array(sessionListItemSchema) });

/** DELETE /api/sessions/{id} and DELETE /api/sessions (every other session) */
export const sessionsEndedSchema = z.strictObject({ ended: z.number().int() });
