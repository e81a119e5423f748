import { z } from "zod";
import { isoDateSchema } from "./common";

/** GET /api/stores/{storeUrl}/rollups: how much of the store the day rollups keep. */
export const rollupStatusSchema = z.object({
  enabled: z.boolean(),
  /** Fills of the store are queued or running. */
  filling: z.boolean(),
  /** The closed days of the last 13 months held, in whole percent. */
  percent: z.number().int().min(0).max(100),
  heldFrom: isoDateSchema.nullable(),
  heldTo: isoDateSchema.nullable(),
  /** When the oldest of the held figures was read from the upstream. */
  asOf: z.iso.datetime().nullable(),
});
export type RollupStatus = z.infer<typeof rollupStatusSchema>;
