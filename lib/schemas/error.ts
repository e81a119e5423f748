import { z } from "zod";

/** The Error object of the contract (part 7). Extra properties may appear. */
export const apiErrorSchema = z.looseObject({
  error: z.string(),
  requestId: z.string().optional(),
  details: z.unknown().optional(),
  retryAfter: z.string().nullable().optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;
