import { useQuery } from "@tanstack/react-query";
import { rollupStatusSchema } from "@/shared/schemas/rollups";
import { buildPath } from "@/shared/url";
import { apiFetch } from "./api-client";

/** GET /api/stores/{storeUrl}/rollups: how much of the store the rollups keep; looked at again every few seconds while a warm-up runs. */
export function useRollupStatus(storeUrl: string, organizationId?: string) {
  return useQuery({
    queryKey: ["rollups", storeUrl, organizationId ?? ""] as const,
    queryFn: ({ signal }) => apiFetch(buildPath(["api", "stores", storeUrl, "rollups"]), rollupStatusSchema, { signal, organizationId }),
    staleTime: 30_000,
    refetchInterval: (query) => (query.state.data?.filling ? 5_000 : false),
  });
}
