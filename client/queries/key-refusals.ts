import { queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AuditAction } from "@/shared/schemas/activity";
import { actionPermissionsSchema } from "@/shared/schemas/action-permissions";
import type { KeyRefusal } from "@/shared/schemas/session";
import { buildPath } from "@/shared/url";
import { apiFetch } from "./api-client";

const keyRefusalKeys = {
  all: ["key-refusals"] as const,
  store: (storeUrl: string, organizationId: string | undefined, action: AuditAction) =>
    [...keyRefusalKeys.all, storeUrl, organizationId ?? null, action] as const,
};

const actionPermissionsQueryOptions = (storeUrl: string, organizationId: string | undefined, action: AuditAction) =>
  queryOptions({
    queryKey: keyRefusalKeys.store(storeUrl, organizationId, action),
    queryFn: ({ signal }) =>
      apiFetch(buildPath(["api", "stores", storeUrl, "action-permissions"], { action }), actionPermissionsSchema, {
        signal,
        organizationId,
      }),
    staleTime: 60_000,
  });

/**
 * The actions the store's key is refused (GET /api/stores/{storeUrl}/action-permissions): what the
 * upstream refused it before, or answered a side-effect-free probe with 403. The contract lists no
 * permissions, so this is what the dashboard learns before anyone types.
 * `recheck` asks again (as a confirmation dialog opens) and resolves to the refusal, if any.
 */
export function useKeyRefusal(
  action: AuditAction,
  storeUrl: string,
  organizationId?: string,
): { refusal?: KeyRefusal; isPending: boolean; recheck: () => Promise<KeyRefusal | undefined> } {
  const refusals = useQuery(actionPermissionsQueryOptions(storeUrl, organizationId, action));
  const find = (list?: readonly KeyRefusal[]) => list?.find((candidate) => candidate.action === action);
  return {
    refusal: find(refusals.data?.refusals),
    isPending: refusals.isPending,
    recheck: async () => find((await refusals.refetch()).data?.refusals),
  };
}

/** After a 403 in a page: read the refusals again, so the page shows the action unavailable at once. */
export function useRefreshKeyRefusals(): () => void {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: keyRefusalKeys.all });
}
