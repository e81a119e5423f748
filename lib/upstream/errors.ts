import "server-only";
import { endedReasonWords, endSessionCookies, type EndedReason } from "@/lib/session/ended";
import { type ErrorCode, errorResponse } from "@/lib/server/http";
import { UpstreamFailure, UpstreamHttpError } from "./client";

/** Which of the contract's 401 reasons an upstream message names. */
export function unauthorizedCode(message: string): EndedReason {
  if (/expired/i.test(message)) return "key_expired";
  if (/revoked/i.test(message)) return "key_revoked";
  return "key_invalid";
}

/** A 403 caused by an old key without store scope (contract part 5.5) rather than a missing permission. */
export function forbiddenCode(message: string): Extract<ErrorCode, "key_unscoped" | "forbidden"> {
  return /scope/i.test(message) && /(legacy|older|replace|without|no store)/i.test(message) ? "key_unscoped" : "forbidden";
}

/** The upstream refused the key: say why, and (for a signed-in user) end the session, remembering why. */
export function unauthorizedResponse(message: string, requestId: string, endSession: boolean): Response {
  const code = unauthorizedCode(message);
  const response = errorResponse(401, code, endedReasonWords[code], { requestId, details: { upstream: message } });
  if (endSession) for (const cookie of endSessionCookies(code)) response.headers.append("set-cookie", cookie);
  return response;
}

/**
 * The answer for a failed upstream call the dashboard made itself. An upstream 401 means
 * the key stopped working: the session ends with it.
 */
export function upstreamErrorResponse(error: unknown, requestId: string): Response {
  if (error instanceof UpstreamFailure) {
    return errorResponse(error.status, error.code, error.message, { requestId: error.upstreamRequestId ?? requestId });
  }
  if (error instanceof UpstreamHttpError) {
    const upstreamRequestId = error.upstreamRequestId ?? requestId;
    if (error.status === 401) return unauthorizedResponse(error.body.error, upstreamRequestId, true);
    const code: ErrorCode =
      error.status === 403
        ? forbiddenCode(error.body.error)
        : error.status === 404
          ? "not_found"
          : error.status >= 500
            ? "upstream_unavailable"
            : "bad_request";
    return errorResponse(error.status, code, error.body.error, {
      requestId: upstreamRequestId,
      details: error.body.details,
      retryAfter: error.body.retryAfter ?? undefined,
    });
  }
  throw error;
}
