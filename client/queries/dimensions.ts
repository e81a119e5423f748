import { queryOptions, useQuery } from "@tanstack/react-query";
import { dimensionValuesSchema, type DimensionsQuery } from "@/shared/schemas/product-metrics";
import { apiFetch, v1Path } from "./api-client";

const dimensionKeys = {
  all: ["dimensions"] as const,
  values: (storeUrl: string, query: DimensionsQuery, organizationId?: string) =>
    [...dimensionKeys.all, storeUrl, organizationId ?? null, query] as const,
};

const dimensionsQueryOptions = (storeUrl: string, query: DimensionsQuery, organizationId?: string) =>
  queryOptions({
    queryKey: dimensionKeys.values(storeUrl, query, organizationId),
    queryFn: ({ signal }) =>
      apiFetch(v1Path(["ad-metrics", storeUrl, "dimensions"], { ...query }), dimensionValuesSchema, { signal, organizationId }),
    staleTime: 5 * 60_000,
  });

/** GET /ad-metrics/{storeUrl}/dimensions: the values the filters may take for this range, channel, ad and source. */
export function useDimensions(storeUrl: string, query: DimensionsQuery, organizationId?: string) {
  return useQuery(dimensionsQueryOptions(storeUrl, query, organizationId));
}
