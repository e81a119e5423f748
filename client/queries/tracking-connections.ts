import { queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { trackingConnectionDeleteSchema, trackingConnectionListSchema } from "@/shared/schemas/tracking-connection";
import { ApiRequestError, apiFetch, v1Path } from "./api-client";
import { activityKeys, sendGuardedAction } from "./activity";
import { useGuardedAction } from "@/client/guarded-action";

const trackingConnectionKeys = {
  all: ["tracking-connections"] as const,
  list: (storeUrl: string, organizationId?: string) => [...trackingConnectionKeys.all, storeUrl, organizationId ?? null] as const,
};

export const trackingConnectionsQueryOptions = (storeUrl: string, organizationId?: string) =>
  queryOptions({
    queryKey: trackingConnectionKeys.list(storeUrl, organizationId),
    queryFn: ({ signal }) => apiFetch(v1Path(["pixels", storeUrl]), trackingConnectionListSchema, { signal, organizationId }),
  });

/** GET /pixels/{storeUrl}: the store's tracking connections. */
export function useTrackingConnections(storeUrl: string, organizationId?: string) {
  return useQuery(trackingConnectionsQueryOptions(storeUrl, organizationId));
}

/** DELETE /pixels/{storeUrl}/{pixelId} as a guarded action; the list is replaced from the answer, re-read on a 404 (already gone). */
export function useRemoveTrackingConnection(storeUrl: string, organizationId?: string) {
  const queryClient = useQueryClient();
  const listKey = trackingConnectionsQueryOptions(storeUrl, organizationId).queryKey;
  return useGuardedAction({
    send: (pixelId: string, idempotencyKey: string) =>
      sendGuardedAction(v1Path(["pixels", storeUrl, pixelId]), trackingConnectionDeleteSchema, {
        method: "DELETE",
        idempotencyKey,
        organizationId,
      }),
    onSuccess: ({ data }) => {
      queryClient.setQueryData(listKey, { storeUrl: data.storeUrl, pixels: data.pixels });
    },
    onError: (error) => {
      if (error instanceof ApiRequestError && error.status === 404) void queryClient.invalidateQueries({ queryKey: listKey });
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: activityKeys.all }),
  });
}
