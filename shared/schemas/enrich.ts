import { z } from "zod";
import { identifierSchema } from "./common";

/** POST /ad-metrics/{storeUrl}/enrich. How IDs are sent is not in the contract: `assetIds` (DESIGN.md). */
export const enrichRequestSchema = z.strictObject({
  channel: identifierSchema,
  assetIds: z.array(identifierSchema).min(1, "must list at least one ID").max(500, "must list at most 500 IDs"),
});

const enrichedAssetSchema = z.looseObject({
  assetType: z.string(),
  assetId: z.string(),
  assetName: z.string(),
  assetStatus: z.string(),
  assetEffectiveStatus: z.string(),
  /** A campaign group's own budgets when the answer carries them (contract 2.6); another type is ignored rather than failing the lookup. */
  dailyBudget: z.number().optional().catch(undefined),
  lifetimeBudget: z.number().optional().catch(undefined),
});
export type EnrichedAsset = z.infer<typeof enrichedAssetSchema>;

export const enrichResponseSchema = z.looseObject({ assets: z.array(enrichedAssetSchema) });
