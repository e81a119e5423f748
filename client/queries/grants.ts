import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { grantListSchema, grantSchema } from "@/shared/schemas/grant";
import { buildPath } from "@/shared/url";
import { apiFetch } from "./api-client";

const grantsPath = (storeUrl: string, ...rest: string[]) => buildPath(["api", "stores", storeUrl, "grants", ...rest]);

export const grantKeys = {
  all: ["grants"] as const,
  store: (storeUrl: string, organizationId?: string) => [...grantKeys.all, storeUrl, organizationId ?? ""] as const,
};

const grantsQueryOptions = (storeUrl: string, organizationId?: string) =>
  queryOptions({
    queryKey: grantKeys.store(storeUrl, organizationId),
    queryFn: ({ signal }) => apiFetch(grantsPath(storeUrl), grantListSchema, { signal, organizationId }),
    staleTime: 0,
  });

/** GET /api/stores/{storeUrl}/grants */
export function useGrants(storeUrl: string, organizationId?: string) {
  return useQuery(grantsQueryOptions(storeUrl, organizationId));
}

/** Grant (with consent) and revoke: each refreshes the grants and the digests that depend on them. */
export function useGrantActions(storeUrl: string, organizationId?: string) {
  const queryClient = useQueryClient();
  const refresh = () =>
    queryClient
      .invalidateQueries({ queryKey: grantKeys.store(storeUrl, organizationId) })
      .then(() => queryClient.invalidateQueries({ queryKey: ["digests"] }));
  return {
    grant: useMutation({
      mutationFn: () => apiFetch(grantsPath(storeUrl), grantSchema, { organizationId, method: "POST", body: { consent: true } }),
      onSettled: refresh,
    }),
    revoke: useMutation({
      mutationFn: (id: string) =>
        apiFetch(grantsPath(storeUrl, id), z.object({ revoked: z.boolean() }), { organizationId, method: "DELETE" }),
      onSettled: refresh,
    }),
  };
}
