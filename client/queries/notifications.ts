import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { notificationListSchema } from "@/shared/schemas/notification";
import { buildPath } from "@/shared/url";
import { apiFetch } from "./api-client";

export const inboxKeys = { all: ["notifications"] as const };

const inboxQueryOptions = (store?: string) =>
  queryOptions({
    queryKey: [...inboxKeys.all, store ?? ""],
    queryFn: ({ signal }) =>
      apiFetch(`/api/notifications${store ? `?${new URLSearchParams({ store })}` : ""}`, notificationListSchema, { signal }),
    staleTime: 15_000,
    // The header's badge follows new notifications without a reload.
    refetchInterval: 30_000,
  });

/** GET /api/notifications: the inbox of the reach's stores (or of `store` alone) as this user reads it, and the unread count. */
export function useInbox(store?: string) {
  return useQuery(inboxQueryOptions(store));
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
