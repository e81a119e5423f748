import { z } from "zod";

/** GET /api/stores/{storeUrl}/linkedin-assets: the LinkedIn IDs seen in the store's metrics rows, named by enrich. */
export const linkedinAssetsSchema = z.strictObject({
  startDate: z.string(),
  endDate: z.string(),
  assets: z.array(
    z.strictObject({
      id: z.string(),
      seenAs: z.enum(["campaign", "ad"]),
      /** Absent when enrich did not resolve the ID (a deleted ad, say). */
      name: z.string().optional(),
      status: z.string().optional(),
    }),
  ),
});
export type LinkedInAssets = z.infer<typeof linkedinAssetsSchema>;
