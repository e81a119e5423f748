import { queryOptions, useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import { activityResponseSchema } from "@/lib/schemas/activity";
import { apiFetch, apiFetchWithHeaders } from "./api-client";

/**
 * Guarded actions from the browser's side: how they are sent (with their Idempotency-Key,
 * reading back the request id for the notice), and the Activity list they feed.
 */

export const activityKeys = { all: ["activity"] as const };

export const activityQueryOptions = () =>
  queryOptions({
    queryKey: activityKeys.all,
    queryFn: ({ signal }) => apiFetch("/api/activity", activityResponseSchema, { signal }),
    // The history changes with every action anywhere in the organization: always read it fresh.
    staleTime: 0,
  });

/** GET /api/activity: the organization's guarded actions, newest first. */
export function useActivity() {
  return useQuery(activityQueryOptions());
}

export interface ActionResult<T> {
  data: T;
  /** The upstream's x-request-id, for the notice and for support. */
  requestId?: string;
  /** The dashboard answered from its idempotency record: the action had already run. */
  replayed: boolean;
}

interface GuardedActionOptions {
  method: "POST" | "DELETE";
  body?: unknown;
  /** One UUID per intended action, the same across retries of it. */
  idempotencyKey: string;
  organizationId?: string;
}

/**
 * Sends one guarded action through the dashboard's proxy, with its Idempotency-Key, and
 * returns the request id the success notice shows.
 */
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
  return { data, requestId, replayed: headers.get("idempotent-replayed") === "true" };
}

/** A fresh key for a new intended action. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}
