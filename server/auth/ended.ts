import "server-only";
import { DashboardError } from "@/server/http/responses";
import { readCookie, requestIsSecure } from "./cookie";

/** Why the last session ended (only the reason), kept a few minutes so in-flight requests and the next page can say why. */
export const SESSION_ENDED_COOKIE = "session_ended";
const REMEMBER_SECONDS = 300;

const endedReasons = ["key_expired", "key_revoked", "key_invalid", "session_revoked", "session_expired", "session_idle"] as const;
export type EndedReason = (typeof endedReasons)[number];

export function parseEndedReason(value: string | undefined): EndedReason | undefined {
  return endedReasons.find((reason) => reason === value);
}

function endedCookie(value: string, maxAge: number, secure: boolean): string {
  return `${SESSION_ENDED_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure ? "; Secure" : ""}`;
}

/** Set-Cookie value that remembers why the session ended. */
export function endedReasonCookie(reason: EndedReason, request: Request): string {
  return endedCookie(reason, REMEMBER_SECONDS, requestIsSecure(request));
}

/** Set-Cookie value that forgets an earlier reason (a new session has begun, or the user signed out). */
export function forgetEndedReasonCookie(request: Request): string {
  return endedCookie("", 0, requestIsSecure(request));
}

/** The 401 for a request without a session, with the reason the last session ended if it is known. */
export function sessionMissingError(request: Request): DashboardError {
  const reason = parseEndedReason(readCookie(request.headers.get("cookie"), SESSION_ENDED_COOKIE));
  return new DashboardError(401, reason ?? "no_session");
}
