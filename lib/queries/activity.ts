import { queryOptions, useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { activityResponseSchema } from "@/lib/actions/audit-entry";
import { apiErrorSchema } from "@/lib/schemas/error";
import { apiFetch, ApiRequestError } from "./api-client";

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

export interface GuardedActionOptions {
  method: "POST" | "DELETE";
  body?: unknown;
  /** One UUID per intended action, the same across retries of it. */
  idempotencyKey: string;
  organizationId?: string;
}

const dashboardErrorSchema = apiErrorSchema.extend({ code: z.string().optional() });

/**
 * Sends one guarded action through the dashboard's proxy. Like `apiFetch`, with the
 * Idempotency-Key header, and it returns the request id the success notice shows.
 */
export async function sendGuardedAction<T extends z.ZodType>(path: string, schema: T, options: GuardedActionOptions): Promise<ActionResult<z.infer<T>>> {
  const headers: Record<string, string> = { accept: "application/json", "idempotency-key": options.idempotencyKey };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (options.organizationId) headers["x-service-organization-id"] = options.organizationId;
  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: "same-origin",
    });
  } catch {
    throw new ApiRequestError(0, "The dashboard could not be reached. Check your connection and try again.", "network", undefined);
  }
  const requestId = response.headers.get("x-request-id") ?? undefined;
  const text = await response.text().catch(() => "");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (!response.ok) {
    const error = dashboardErrorSchema.safeParse(json);
    if (!error.success) throw new ApiRequestError(response.status, `The dashboard answered with status ${response.status}.`, undefined, requestId);
    throw new ApiRequestError(response.status, error.data.error, error.data.code, error.data.requestId ?? requestId, error.data.details);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new ApiRequestError(502, "The answer did not have the expected shape.", "upstream_malformed", requestId);
  return { data: parsed.data, requestId, replayed: response.headers.get("idempotent-replayed") === "true" };
}

/** A fresh key for a new intended action. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}
