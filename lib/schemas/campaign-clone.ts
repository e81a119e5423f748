import { z } from "zod";
import { identifierSchema } from "./common";

export const campaignStatuses = ["PAUSED", "ACTIVE"] as const;

/**
 * Body of POST /platform/{storeUrl}/actions/clone-linkedin-campaign (contract 4.7).
 * Units are not in the contract: times are epoch milliseconds, budget is in the
 * currency's major unit (DESIGN.md).
 */
export const cloneCampaignRequestSchema = z.strictObject({
  adAccountId: identifierSchema,
  payload: z
    .strictObject({
      sourceCampaignGroupId: identifierSchema,
      name: z.string().trim().min(1, "must not be empty").max(255, "must be at most 255 characters"),
      status: z.enum(campaignStatuses).default("PAUSED"),
      startTime: z.number().int().positive().optional(),
      endTime: z.number().int().positive().optional(),
      budget: z.number().positive("must be greater than 0").finite().optional(),
      currencyCode: z.string().regex(/^[A-Z]{3}$/, "must be a three-letter currency code").optional(),
    })
    .superRefine((payload, ctx) => {
      if (payload.startTime !== undefined && payload.endTime !== undefined && payload.endTime <= payload.startTime) {
        ctx.addIssue({ code: "custom", path: ["endTime"], message: "must be after startTime" });
      }
    }),
});
export type CloneCampaignRequest = z.input<typeof cloneCampaignRequestSchema>;

/** The `asset` of a clone response (contract 2.6). */
export const advertisingAssetSchema = z.looseObject({
  key: z.string(),
  platform: z.string(),
  adAccountId: z.string(),
  assetType: z.string(),
  assetId: z.string(),
  name: z.string(),
  supportedWrites: z.array(z.string()),
  parentAssetId: z.string(),
  status: z.string(),
  effectiveStatus: z.string(),
  dailyBudget: z.number(),
  lifetimeBudget: z.number(),
  updatedAt: z.string(),
});
export type AdvertisingAsset = z.infer<typeof advertisingAssetSchema>;

export const cloneCampaignResponseSchema = z.looseObject({
  ok: z.boolean(),
  result: z.record(z.string(), z.unknown()),
  asset: advertisingAssetSchema,
  results: z.array(z.record(z.string(), z.unknown())),
});
export type CloneCampaignResponse = z.infer<typeof cloneCampaignResponseSchema>;
