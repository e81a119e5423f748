import { z } from "zod";

/** The Error object of the contract (part 7). Extra properties may appear. */
export const apiErrorSchema = z.looseObject({
  error: z.string(),
  requestId: z.string().optional(),
  details: z.unknown().optional(),
  retryAfter: z.string().nullable().optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

/** After these the session is gone and the user must sign in again. */
const sessionEndingCodes = [
  "no_session",
  "session_revoked",
  "session_expired",
  "session_idle",
  "key_expired",
  "key_revoked",
  "key_invalid",
] as const;

/** Why a dashboard route failed, for pages to choose their words (server, sign-in page and API client). */
const errorCodes = [
  "bad_request",
  "payload_too_large",
  "cross_site",
  "not_found",
  "method_not_allowed",
  ...sessionEndingCodes,
  "key_unscoped",
  "forbidden",
  "rate_limited",
  "name_taken",
  "idempotency_conflict",
  "idempotency_in_progress",
  "outcome_unknown",
  "upstream_timeout",
  "upstream_unavailable",
  "upstream_malformed",
  "range_too_long",
  "database_unavailable",
  "internal_error",
  "delegation_off",
  "grant_needed",
  "limit_reached",
  "ring_full",
  "store_in_ring",
  "ring_changed",
  "already_decided",
  "cannot_send_again",
] as const;
export const errorCodeSchema = z.enum(errorCodes);
export type ErrorCode = z.infer<typeof errorCodeSchema>;

type SessionEndingCode = (typeof sessionEndingCodes)[number];

export function isSessionEndingCode(code: unknown): code is SessionEndingCode {
  return sessionEndingCodes.includes(code as SessionEndingCode);
}

/** The Error object as the dashboard's own routes answer it: the contract's shape plus a code. */
export const dashboardErrorSchema = apiErrorSchema.extend({
  code: z.string().optional(),
  /** The dashboard's own id for the request, also when `requestId` is the upstream's. */
  dashboardRequestId: z.string().optional(),
});
export type DashboardErrorBody = z.infer<typeof dashboardErrorSchema>;
