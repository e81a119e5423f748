import { queryOptions, useQuery } from "@tanstack/react-query";
import { catalogConnectionsSchema, storeProfileSchema } from "@/shared/schemas/store";
import { apiFetch, v1Path } from "./api-client";

export const storeKeys = {
  all: ["store"] as const,
  profile: (storeUrl: string, organizationId?: string) => [...storeKeys.all, storeUrl, organizationId ?? null, "profile"] as const,
  catalogs: (storeUrl: string, organizationId?: string) => [...storeKeys.all, storeUrl, organizationId ?? null, "catalogs"] as const,
};

export const storeProfileQueryOptions = (storeUrl: string, organizationId?: string) =>
  queryOptions({
    queryKey: storeKeys.profile(storeUrl, organizationId),
    queryFn: ({ signal }) => apiFetch(v1Path(["store-data", storeUrl]), storeProfileSchema, { signal, organizationId }),
    staleTime: 5 * 60_000,
  });

/** GET /store-data/{storeUrl}: type, currency and time zone. */
export function useStoreProfile(storeUrl: string, organizationId?: string) {
  return useQuery(storeProfileQueryOptions(storeUrl, organizationId));
}

/** GET /store-data/{storeUrl}/catalogs */
export function useCatalogConnections(storeUrl: string, organizationId?: string) {
  return useQuery({
    queryKey: storeKeys.catalogs(storeUrl, organizationId),
    queryFn: ({ signal }) => apiFetch(v1Path(["store-data", storeUrl, "catalogs"]), catalogConnectionsSchema, { signal, organizationId }),
  });
}
