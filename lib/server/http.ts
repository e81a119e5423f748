import "server-only";
import { randomUUID } from "node:crypto";
import type { ApiError } from "@/lib/schemas/error";

/** Why a request failed, for the pages to choose their words; the `error` text is for people. */
export type ErrorCode =
  | "bad_request"
  | "cross_site"
  | "not_found"
  | "method_not_allowed"
  | "no_session"
  | "key_expired"
  | "key_revoked"
  | "key_invalid"
  | "key_unscoped"
  | "forbidden"
  | "rate_limited"
  | "idempotency_conflict"
  | "upstream_timeout"
  | "upstream_unavailable"
  | "upstream_malformed";

export type DashboardError = ApiError & { requestId: string; code: ErrorCode };

export function newRequestId(): string {
  return `dash_${randomUUID()}`;
}

export function errorResponse(
  status: number,
  code: ErrorCode,
  message: string,
  options: { requestId: string; details?: unknown; headers?: Record<string, string>; retryAfter?: string },
): Response {
  const body: DashboardError = {
    error: message,
    code,
    requestId: options.requestId,
    retryAfter: options.retryAfter ?? null,
    ...(options.details === undefined ? {} : { details: options.details }),
  };
  const headers = new Headers(options.headers);
  headers.set("content-type", "application/json; charset=utf-8");
  headers.set("x-request-id", options.requestId);
  headers.set("cache-control", "no-store");
  if (options.retryAfter) headers.set("retry-after", options.retryAfter);
  return new Response(JSON.stringify(body), { status, headers });
}

export function jsonResponse(body: unknown, init: { status?: number; requestId: string; headers?: HeadersInit }): Response {
  const headers = new Headers(init.headers);
  headers.set("content-type", "application/json; charset=utf-8");
  headers.set("x-request-id", init.requestId);
  headers.set("cache-control", "no-store");
  return new Response(JSON.stringify(body), { status: init.status ?? 200, headers });
}

/** zod issues as the `details` of a 400: where and what, never the rejected values. */
export function issueDetails(issues: readonly { path: readonly PropertyKey[]; message: string }[]) {
  return { issues: issues.map((issue) => ({ path: issue.path.map(String).join("."), message: issue.message })) };
}
