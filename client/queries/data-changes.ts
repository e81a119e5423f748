import { useQuery } from "@tanstack/react-query";
import { dataChangesSchema } from "@/shared/schemas/data-change";
import { buildPath } from "@/shared/url";
import { apiFetch } from "./api-client";

/** GET /api/stores/{storeUrl}/data-changes: the store's restated days, newest first. */
export function useDataChanges(storeUrl: string, organizationId?: string) {
  return useQuery({
    queryKey: ["data-changes", storeUrl, organizationId ?? ""] as const,
    queryFn: ({ signal }) =>
      apiFetch(buildPath(["api", "stores", storeUrl, "data-changes"]), dataChangesSchema, { signal, organizationId }),
    staleTime: 60_000,
  });
}
