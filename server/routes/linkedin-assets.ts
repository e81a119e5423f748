import "server-only";
import { route } from "@/server/http/pipeline";
import { jsonResponse } from "@/server/http/responses";
import { LinkedInIds } from "@/server/metrics/linkedin-ids";
import { openProductRows } from "@/server/metrics/product-rows";
import { resolvePreset } from "@/shared/metrics/date-range";
import { enrichResponseSchema } from "@/shared/schemas/enrich";
import type { LinkedInAssets } from "@/shared/schemas/linkedin-assets";
import { storeProfileSchema } from "@/shared/schemas/store";
import { interpretTimeZone } from "@/shared/store-locale";

/**
 * GET /api/stores/{storeUrl}/linkedin-assets: the campaign and ad IDs of the store's LinkedIn
 * metrics rows of the last 90 days (in the store's zone), with their names and statuses
 * resolved through enrich, for the clone form's suggestions.
 */
export const linkedinAssets = route(
  { methods: ["GET"], path: "/api/stores/[storeUrl]/linkedin-assets", scope: "store" },
  async ({ scope, upstream, requestId, log }) => {
    const storeUrl = scope.store!.url;
    const profile = await upstream.json("store-profile", storeProfileSchema, { params: { storeUrl } });
    const range = resolvePreset("last90", interpretTimeZone(profile.data.timezone).zone);
    const rows = await openProductRows(upstream, storeUrl, { ...range, channel: "linkedin" });
    log.upstreamRequestId = rows.upstreamRequestId;
    const ids = new LinkedInIds();
    for await (const batch of rows.batches) for (const row of batch) ids.add(row);
    const seen = ids.result();
    const resolved =
      seen.length === 0
        ? []
        : (
            await upstream.json("enrich", enrichResponseSchema, {
              params: { storeUrl },
              body: { channel: "linkedin", assetIds: seen.map((item) => item.id) },
            })
          ).data.assets;
    const byId = new Map(resolved.map((asset) => [asset.assetId, asset]));
    const assets = seen.map(({ id, seenAs }) => {
      const asset = byId.get(id);
      return asset ? { id, seenAs, name: asset.assetName, status: asset.assetStatus } : { id, seenAs };
    });
    return jsonResponse({ ...range, assets } satisfies LinkedInAssets, { requestId });
  },
);
