import "server-only";
import { route } from "@/server/http/pipeline";
import { jsonResponse } from "@/server/http/responses";
import { ENRICH_LIMIT, LinkedInIds } from "@/server/metrics/linkedin-ids";
import { openProductRows } from "@/server/metrics/product-rows";
import type { UpstreamClient } from "@/server/upstream/client";
import { resolvePreset } from "@/shared/metrics/date-range";
import { enrichResponseSchema, type EnrichedAsset } from "@/shared/schemas/enrich";
import type { LinkedInAssets } from "@/shared/schemas/linkedin-assets";
import { storeProfileSchema } from "@/shared/schemas/store";
import { interpretTimeZone } from "@/shared/store-locale";

/** The asset type the contract gives campaign groups (2.6, 2.7): the only one the clone's Source takes. */
const CAMPAIGN = "campaign";

const textOf = (value: unknown) => (typeof value === "string" && value.trim() ? value : undefined);

async function enrich(upstream: UpstreamClient, storeUrl: string, ids: readonly string[]): Promise<EnrichedAsset[]> {
  if (ids.length === 0) return [];
  const answer = await upstream.json("enrich", enrichResponseSchema, {
    params: { storeUrl },
    body: { channel: "linkedin", assetIds: ids.slice(0, ENRICH_LIMIT) },
  });
  return answer.data.assets;
}

/**
 * The campaign groups among `assets`, and the campaign IDs their ads name (`campaignId`, an
 * additional property of an enriched ad, when the upstream gives it), in the order seen.
 */
function campaignGroupsOf(assets: readonly EnrichedAsset[]): { groups: EnrichedAsset[]; named: string[] } {
  const groups = assets.filter((asset) => asset.assetType === CAMPAIGN);
  const named = assets.flatMap((asset) => (asset.assetType === CAMPAIGN ? [] : [textOf((asset as Record<string, unknown>).campaignId)]));
  return { groups, named: [...new Set(named.filter((id): id is string => id !== undefined))] };
}

/**
 * GET /api/stores/{storeUrl}/linkedin-assets: the clone form's suggestions from the store's data.
 * The LinkedIn campaign and ad IDs of its metrics rows of the last 90 days (in the store's zone)
 * go to enrich; what it answers as a campaign is a group, and the campaigns its ads name are asked
 * in turn. Only what enrich calls a campaign is offered: never an ad.
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
    const first = campaignGroupsOf(
      await enrich(
        upstream,
        storeUrl,
        ids.result().map((item) => item.id),
      ),
    );
    const known = new Set(first.groups.map((group) => group.assetId));
    const second = campaignGroupsOf(
      await enrich(
        upstream,
        storeUrl,
        first.named.filter((id) => !known.has(id)),
      ),
    );
    // Each group once, in the order its first ad or row had the most revenue.
    const byId = new Map([...first.groups, ...second.groups].map((asset) => [asset.assetId, asset]));
    const order = [...new Set([...first.groups.map((group) => group.assetId), ...first.named])].filter((id) => byId.has(id));
    const groups = order.map((id) => {
      const asset = byId.get(id)!;
      const accountId = textOf((asset as Record<string, unknown>).adAccountId);
      return { id, name: asset.assetName, status: asset.assetStatus, ...(accountId && { accountId }) };
    });
    const accounts = [...new Set(groups.flatMap((group) => (group.accountId ? [group.accountId] : [])))].map((id) => ({ id }));
    return jsonResponse({ ...range, groups, accounts } satisfies LinkedInAssets, { requestId });
  },
);
