import { queryOptions, useQuery } from "@tanstack/react-query";
import { enrichResponseSchema } from "@/shared/schemas/enrich";
import { apiFetch, v1Path } from "./api-client";

const enrichKeys = {
  all: ["enrich"] as const,
  assets: (storeUrl: string, channel: string, assetIds: readonly string[], organizationId?: string) =>
    [...enrichKeys.all, storeUrl, organizationId ?? null, channel, [...assetIds].sort()] as const,
};

/** POST /ad-metrics/{storeUrl}/enrich as a query: it reads, it changes nothing. IDs that do not resolve are simply absent from `assets`. */
export const enrichQueryOptions = (storeUrl: string, channel: string, assetIds: readonly string[], organizationId?: string) =>
  queryOptions({
    queryKey: enrichKeys.assets(storeUrl, channel, assetIds, organizationId),
    queryFn: ({ signal }) =>
      apiFetch(v1Path(["ad-metrics", storeUrl, "enrich"]), enrichResponseSchema, {
        method: "POST",
        body: { channel, assetIds: [...new Set(assetIds)] },
        signal,
        organizationId,
      }),
    enabled: channel !== "" && assetIds.length > 0,
    staleTime: 5 * 60_000,
  });

/** Names and statuses of ad assets (ads, campaigns) of one store and channel. */
export function useEnrichedAssets(storeUrl: string, channel: string, assetIds: readonly string[], organizationId?: string) {
  return useQuery(enrichQueryOptions(storeUrl, channel, assetIds, organizationId));
}
