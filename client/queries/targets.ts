import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { revenueTargetListSchema, revenueTargetSchema, type NewRevenueTarget } from "@/shared/schemas/target";
import { buildPath } from "@/shared/url";
import { apiFetch } from "./api-client";

const targetKeys = {
  all: ["targets"] as const,
  store: (storeUrl: string, organizationId?: string) => [...targetKeys.all, storeUrl, organizationId ?? ""] as const,
  months: (storeUrl: string, month: string, to: string | undefined, organizationId?: string) =>
    [...targetKeys.store(storeUrl, organizationId), month, to ?? month] as const,
};

const targetsQueryOptions = (storeUrl: string, month: string, organizationId?: string, to?: string) =>
  queryOptions({
    queryKey: targetKeys.months(storeUrl, month, to, organizationId),
    queryFn: ({ signal }) =>
      apiFetch(buildPath(["api", "stores", storeUrl, "targets"], { month, to }), revenueTargetListSchema, { signal, organizationId }),
    staleTime: 60_000,
  });

/** GET /api/stores/{storeUrl}/targets: a month's revenue targets, or those of the months `month` to `to`. */
export function useTargets(storeUrl: string, month: string, organizationId?: string, to?: string) {
  return useQuery(targetsQueryOptions(storeUrl, month, organizationId, to));
}

/** PUT /api/stores/{storeUrl}/targets: sets a month's target, then reads the store's targets again. */
export function useSetTarget(storeUrl: string, organizationId?: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (target: NewRevenueTarget) =>
      apiFetch(buildPath(["api", "stores", storeUrl, "targets"]), revenueTargetSchema, { organizationId, method: "PUT", body: target }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: targetKeys.store(storeUrl, organizationId) }),
  });
}
