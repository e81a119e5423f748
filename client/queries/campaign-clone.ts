import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { cloneCampaignResponseSchema, type CloneCampaignRequest } from "@/shared/schemas/campaign-clone";
import { cloneAttemptResponseSchema, cloneDuplicatesResponseSchema, type CloneAttempt } from "@/shared/schemas/clone-attempt";
import { apiFetch, dashboardFetch, v1Path } from "./api-client";
import { activityKeys, sendGuardedAction } from "./activity";
import { useGuardedAction } from "@/client/guarded-action";

const cloneKeys = {
  all: ["campaign-clone"] as const,
  attempt: (storeUrl: string, organizationId?: string) => [...cloneKeys.all, "attempt", storeUrl, organizationId ?? null] as const,
  duplicates: (storeUrl: string, request: CloneCampaignRequest, organizationId?: string) =>
    [
      ...cloneKeys.all,
      "duplicates",
      storeUrl,
      organizationId ?? null,
      request.adAccountId,
      request.payload.sourceCampaignGroupId,
      request.payload.name,
    ] as const,
};

const attemptPath = (storeUrl: string) => `/api/stores/${encodeURIComponent(storeUrl)}/clone-attempt`;

const cloneAttemptQueryOptions = (storeUrl: string, organizationId?: string) =>
  queryOptions({
    queryKey: cloneKeys.attempt(storeUrl, organizationId),
    queryFn: async ({ signal }) => (await apiFetch(attemptPath(storeUrl), cloneAttemptResponseSchema, { signal, organizationId })).attempt,
    staleTime: 0,
    // While the clone is being made, its outcome is read again each second.
    refetchInterval: (query) => (query.state.data?.status === "sending" ? 1_000 : false),
  });

/** GET /api/stores/{storeUrl}/clone-attempt: the clone this session sent for the store, and where it stands. */
export function useCloneAttempt(storeUrl: string, organizationId?: string) {
  return useQuery(cloneAttemptQueryOptions(storeUrl, organizationId));
}

/** GET /api/stores/{storeUrl}/clone-duplicates: the same clone, made or left unknown in the organization in the last day. */
export function useCloneDuplicates(storeUrl: string, request: CloneCampaignRequest, organizationId?: string) {
  const query = new URLSearchParams({
    adAccountId: request.adAccountId,
    sourceCampaignGroupId: request.payload.sourceCampaignGroupId,
    name: request.payload.name,
  });
  return useQuery(
    queryOptions({
      queryKey: cloneKeys.duplicates(storeUrl, request, organizationId),
      queryFn: ({ signal }) =>
        apiFetch(`/api/stores/${encodeURIComponent(storeUrl)}/clone-duplicates?${query}`, cloneDuplicatesResponseSchema, {
          signal,
          organizationId,
        }),
      staleTime: 0,
    }),
  );
}

/** POST …/clone-linkedin-campaign, once per attempt, kept on the server before the request leaves so a reload or another tab finds it. */
export function useCloneCampaign(storeUrl: string, organizationId?: string) {
  const queryClient = useQueryClient();
  const attemptKey = cloneKeys.attempt(storeUrl, organizationId);
  return useGuardedAction({
    prepare: async ({ input, idempotencyKey }: { input: CloneCampaignRequest; idempotencyKey: string }) => {
      const kept = await apiFetch(attemptPath(storeUrl), cloneAttemptResponseSchema, {
        method: "PUT",
        body: { request: input, idempotencyKey },
        organizationId,
      });
      queryClient.setQueryData(attemptKey, kept.attempt);
    },
    send: (request: CloneCampaignRequest, idempotencyKey: string) =>
      sendGuardedAction(v1Path(["platform", storeUrl, "actions", "clone-linkedin-campaign"]), cloneCampaignResponseSchema, {
        method: "POST",
        body: request,
        idempotencyKey,
        organizationId,
      }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: attemptKey });
      void queryClient.invalidateQueries({ queryKey: activityKeys.all });
      void queryClient.invalidateQueries({ queryKey: [...cloneKeys.all, "duplicates"] });
    },
  });
}

/** DELETE /api/stores/{storeUrl}/clone-attempt: "Clone another": the page starts from the form again. */
export function useDismissCloneAttempt(storeUrl: string, organizationId?: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => dashboardFetch(attemptPath(storeUrl), { method: "DELETE", accept: "application/json", organizationId }),
    onSuccess: async () => {
      const key = cloneKeys.attempt(storeUrl, organizationId);
      await queryClient.cancelQueries({ queryKey: key });
      queryClient.setQueryData<CloneAttempt | null>(key, null);
    },
  });
}
