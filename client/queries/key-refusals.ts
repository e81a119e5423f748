import { queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AuditAction } from "@/shared/schemas/activity";
import { sessionResponseSchema, type KeyRefusal } from "@/shared/schemas/session";
import { apiFetch } from "./api-client";

const keyRefusalKeys = { all: ["session", "key-refusals"] as const };

const keyRefusalsQueryOptions = () =>
  queryOptions({
    queryKey: keyRefusalKeys.all,
    queryFn: async ({ signal }) => (await apiFetch("/api/session", sessionResponseSchema, { signal })).refusals ?? [],
    staleTime: 60_000,
  });

/** GET /api/session's `refusals`: the actions the upstream refused this key with 403 (the contract lists no permissions to ask ahead). */
export function useKeyRefusal(action: AuditAction): { refusal?: KeyRefusal; isPending: boolean } {
  const refusals = useQuery(keyRefusalsQueryOptions());
  return { refusal: refusals.data?.find((candidate) => candidate.action === action), isPending: refusals.isPending };
}

/** After a 403 in a page: read the refusals again, so the page shows the action unavailable at once. */
export function useRefreshKeyRefusals(): () => void {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: keyRefusalKeys.all });
}
