import { useQuery } from "@tanstack/react-query";
import { linkedinAssetsSchema } from "@/shared/schemas/linkedin-assets";
import { buildPath } from "@/shared/url";
import { apiFetch } from "./api-client";

/** GET /api/stores/{storeUrl}/linkedin-assets: the LinkedIn IDs of the store's metrics rows, named. */
export function useLinkedInAssets(storeUrl: string, organizationId?: string) {
  return useQuery({
    queryKey: ["linkedin-assets", storeUrl, organizationId ?? ""],
    queryFn: ({ signal }) =>
      apiFetch(buildPath(["api", "stores", storeUrl, "linkedin-assets"]), linkedinAssetsSchema, { signal, organizationId }),
    staleTime: 5 * 60_000,
  });
}
