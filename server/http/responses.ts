import "server-only";
import { randomUUID } from "node:crypto";
import type { DashboardErrorBody, ErrorCode } from "@/shared/schemas/error";
import { errorWords } from "@/shared/error-words";

/** A failure any layer below the pipeline may throw; the pipeline alone turns it into an answer in the contract's Error shape. */
export class DashboardError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string = errorWords[code],
    readonly extra: {
      details?: unknown;
      retryAfter?: string;
      headers?: Record<string, string>;
      upstreamRequestId?: string;
      cause?: unknown;
    } = {},
  ) {
    super(message, { cause: extra.cause });
    this.name = "DashboardError";
  }
}

export function newRequestId(): string {
  return `dash_${randomUUID()}`;
}

/** The Error body: `requestId` is the one to quote (the upstream's when it failed), `dashboardRequestId` always ours. */
export function errorResponse(error: DashboardError, requestId: string): Response {
  const shownId = error.extra.upstreamRequestId ?? requestId;
  const body: DashboardErrorBody & { code: ErrorCode } = {
    error: error.message,
    code: error.code,
    requestId: shownId,
    dashboardRequestId: requestId,
    retryAfter: error.extra.retryAfter ?? null,
    ...(error.extra.details === undefined ? {} : { details: error.extra.details }),
  };
  const headers = new Headers(error.extra.headers);
  headers.set("content-type", "application/json; charset=utf-8");
  headers.set("x-request-id", shownId);
  headers.set("cache-control", "no-store");
  if (error.extra.retryAfter) headers.set("retry-after", error.extra.retryAfter);
  return new Response(JSON.stringify(body), { status: error.status, headers });
}

export function jsonResponse(body: unknown, init: { status?: number; requestId: string; headers?: HeadersInit }): Response {
  const headers = new Headers(init.headers);
  headers.set("content-type", "application/json; charset=utf-8");
  headers.set("x-request-id", init.requestId);
  headers.set("cache-control", "no-store");
  return new Response(JSON.stringify(body), { status: init.status ?? 200, headers });
}

/** zod issues as the `details` of a 400: where and what, never the rejected values. */
function issueDetails(issues: readonly { path: readonly PropertyKey[]; message: string }[]) {
  return { issues: issues.map((issue) => ({ path: issue.path.map(String).join("."), message: issue.message })) };
}

/** A 400 naming the first invalid field, with every issue in `details`. */
export function invalidInput(what: string, issues: readonly { path: readonly PropertyKey[]; message: string }[]): DashboardError {
  const first = issues[0];
  const field = first && first.path.length > 0 ? `${first.path.map(String).join(".")}: ` : "";
  return new DashboardError(400, "bad_request", `${what} is not valid${first ? ` (${field}${first.message})` : ""}.`, {
    details: issueDetails(issues),
  });
}
