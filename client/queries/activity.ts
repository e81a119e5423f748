import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import { searchOfFilters } from "@/shared/activity-filters";
import { activityResponseSchema, type ActivityFilters } from "@/shared/schemas/activity";
import { apiFetch, apiFetchWithHeaders, ApiRequestError } from "./api-client";

/** Guarded actions from the browser: sent with their Idempotency-Key (reading back the request id), and the Activity list they feed. */

export const activityKeys = {
  all: ["activity"] as const,
  list: (filters: ActivityFilters) => [...activityKeys.all, "list", filters] as const,
  entry: (id: string) => [...activityKeys.all, "entry", id] as const,
};

export const activityQueryOptions = (filters: ActivityFilters) =>
  infiniteQueryOptions({
    queryKey: activityKeys.list(filters),
    queryFn: ({ signal, pageParam }) =>
      apiFetch(`/api/activity?${searchOfFilters(filters, { before: pageParam })}`, activityResponseSchema, { signal }),
    initialPageParam: undefined as string | undefined,
    // Keyset paging: each page names the cursor of the next, older one.
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    // The history changes with every action anywhere in the organization: always read it fresh.
    staleTime: 0,
  });

/** GET /api/activity: the organization's guarded actions, newest first, filtered, 50 per page. */
export function useActivity(filters: ActivityFilters) {
  return useInfiniteQuery(activityQueryOptions(filters));
}

/** GET /api/activity?entry=: one entry, the target of an action notice's link; none when no store of the reach has it (a 404). */
export function useActivityEntry(id: string) {
  return useQuery(
    queryOptions({
      queryKey: activityKeys.entry(id),
      queryFn: ({ signal }) =>
        apiFetch(`/api/activity?${new URLSearchParams({ entry: id })}`, activityResponseSchema, { signal }).catch((error: unknown) => {
          if (error instanceof ApiRequestError && error.status === 404) return { stores: [], entries: [], nextCursor: null };
          throw error;
        }),
      staleTime: 0,
    }),
  );
}

/** GET /api/activity/export: the filtered list as CSV, its filters written in its first lines. */
export const activityExportHref = (filters: ActivityFilters) => `/api/activity/export?${searchOfFilters(filters)}`;

/** Where an action's notice links to: its own entry in the Activity list. */
export const activityEntryHref = (auditId: string) => `/activity?${new URLSearchParams({ entry: auditId })}`;

interface ActionResult<T> {
  data: T;
  /** The upstream's x-request-id, for the notice and for support. */
  requestId?: string;
  /** The dashboard answered from its idempotency record: the action had already run. */
  replayed: boolean;
  /** The action's entry in the Activity list. */
  auditId?: string;
}

interface GuardedActionOptions {
  method: "POST" | "DELETE";
  body?: unknown;
  /** One UUID per intended action, the same across retries of it. */
  idempotencyKey: string;
  organizationId?: string;
}

/** Sends one guarded action through the dashboard's proxy, with its Idempotency-Key, and returns the request id for the notice. */
export async function sendGuardedAction<T extends z.ZodType>(
  path: string,
  schema: T,
  options: GuardedActionOptions,
): Promise<ActionResult<z.infer<T>>> {
  const { data, headers, requestId } = await apiFetchWithHeaders(path, schema, {
    method: options.method,
    body: options.body,
    organizationId: options.organizationId,
    headers: { "idempotency-key": options.idempotencyKey },
  });
  return {
    data,
    requestId,
    replayed: headers.get("idempotent-replayed") === "true",
    auditId: headers.get("x-audit-id") ?? undefined,
  };
}
