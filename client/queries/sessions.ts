import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { sessionListSchema, sessionsEndedSchema } from "@/shared/schemas/sessions";
import { buildPath } from "@/shared/url";
import { apiFetch } from "./api-client";

const sessionKeys = { all: ["sessions"] as const };

const sessionsQueryOptions = () =>
  queryOptions({
    queryKey: sessionKeys.all,
    queryFn: ({ signal }) => apiFetch("/api/sessions", sessionListSchema, { signal }),
    staleTime: 0,
  });

/** GET /api/sessions: the signed-in key's sessions. */
export function useSessions() {
  return useQuery(sessionsQueryOptions());
}

/** DELETE /api/sessions/{id}: ends one session; without an id, every session but this one. */
export function useEndSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id?: string) =>
      apiFetch(id ? buildPath(["api", "sessions", id]) : "/api/sessions", sessionsEndedSchema, { method: "DELETE" }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionKeys.all }),
  });
}
