import { z } from "zod";

/**
 * GET /api/stores/{storeUrl}/linkedin-assets: the campaign groups the store's LinkedIn data names
 * (its metrics rows' campaigns, and the campaigns its ads run in), each one the upstream's enrich
 * answers with the campaign asset type, and the ad accounts that hold them. Never an ad.
 */
export const linkedinAssetsSchema = z.strictObject({
  startDate: z.string(),
  endDate: z.string(),
  groups: z.array(
    z.strictObject({
      id: z.string(),
      name: z.string(),
      status: z.string(),
      /** The ad account enrich names for the group (an additional property), when it does. */
      accountId: z.string().optional(),
    }),
  ),
  /** The ad accounts of those groups, each once, the group with most revenue's first. */
  accounts: z.array(z.strictObject({ id: z.string() })),
});
export type LinkedInAssets = z.infer<typeof linkedinAssetsSchema>;
