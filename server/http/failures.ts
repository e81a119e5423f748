import "server-only";
import { ActionError, OutcomeUnknown } from "@/server/actions/errors";
import { DashboardError } from "./responses";
import { DatabaseUnavailable } from "@/server/db/database";
import { SavedViewNameTaken } from "@/server/saved-views/repository";
import { endedReasonCookie, parseEndedReason } from "@/server/auth/ended";
import { clearedSessionCookies } from "@/server/auth/cookie";
import { UpstreamFailure, UpstreamHttpError } from "@/server/upstream/client";
import { forbiddenCode, unauthorizedCode } from "@/server/upstream/errors";
import { errorWords } from "@/shared/error-words";

/** The dashboard's reading of an upstream failure: status, code and the upstream's own words. */
function fromUpstreamStatus(error: UpstreamHttpError): DashboardError {
  const extra = { upstreamRequestId: error.upstreamRequestId, details: error.body.details, retryAfter: error.retryAfter };
  if (error.status === 401) {
    const code = unauthorizedCode(error.body.error);
    return new DashboardError(401, code, errorWords[code], { ...extra, details: { upstream: error.body.error } });
  }
  if (error.status === 403) return new DashboardError(403, forbiddenCode(error.body.error), error.body.error, extra);
  if (error.status === 404) return new DashboardError(404, "not_found", error.body.error, extra);
  if (error.status === 429 || error.status >= 500) {
    return new DashboardError(error.status === 429 ? 503 : error.status, "upstream_unavailable", error.body.error, extra);
  }
  return new DashboardError(error.status, "bad_request", error.body.error, extra);
}

/** Any failure the layers below may throw, as a DashboardError; undefined for an unexpected exception. */
export function toDashboardError(error: unknown): DashboardError | undefined {
  if (error instanceof DashboardError) return error;
  if (error instanceof UpstreamFailure) {
    return new DashboardError(error.status, error.code, error.message, { upstreamRequestId: error.upstreamRequestId });
  }
  if (error instanceof UpstreamHttpError) return fromUpstreamStatus(error);
  if (error instanceof OutcomeUnknown) {
    return new DashboardError(error.status, error.code, error.message, {
      details: { auditId: error.auditId, target: error.target, retrySafe: error.retrySafe },
    });
  }
  if (error instanceof ActionError) return new DashboardError(error.status, error.code, error.message);
  if (error instanceof SavedViewNameTaken) return new DashboardError(409, "name_taken", error.message);
  if (error instanceof DatabaseUnavailable) return new DashboardError(503, "database_unavailable", undefined, { retryAfter: "5" });
  if (error instanceof URIError) return new DashboardError(400, "bad_request", "The path has malformed percent-encoding.");
  return undefined;
}

/** A failure that ends the session also removes its cookie, and remembers why for a few minutes. */
export function withSessionEnded(response: Response, failure: DashboardError, request: Request): Response {
  const reason = parseEndedReason(failure.code);
  if (!reason) return response;
  for (const cookie of clearedSessionCookies(request)) response.headers.append("set-cookie", cookie);
  response.headers.append("set-cookie", endedReasonCookie(reason, request));
  return response;
}
