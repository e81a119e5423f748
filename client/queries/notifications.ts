import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { notificationListSchema } from "@/shared/schemas/notification";
import { buildPath } from "@/shared/url";
import { apiFetch } from "./api-client";

export const inboxKeys = { all: ["notifications"] as const };

const inboxQueryOptions = () =>
  queryOptions({
    queryKey: inboxKeys.all,
    queryFn: ({ signal }) => apiFetch("/api/notifications", notificationListSchema, { signal }),
    staleTime: 15_000,
    // The header's badge follows new notifications without a reload.
    refetchInterval: 30_000,
  });

/** GET /api/notifications: the organization's inbox as this user reads it, and the unread count. */
export function useInbox() {
  return useQuery(inboxQueryOptions());
}

/** PATCH /api/notifications/{id}: read or unread again. */
export function useMarkNotification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, read }: { id: string; read: boolean }) =>
      apiFetch(buildPath(["api", "notifications", id]), z.object({ ok: z.boolean() }), { method: "PATCH", body: { read } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: inboxKeys.all }),
  });
}
