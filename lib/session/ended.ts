import "server-only";
import { errorResponse, type ErrorCode } from "@/lib/server/http";
import { clearedSessionCookie, readCookie } from "./session";

/**
 * Why the last session ended, kept for a few minutes after the upstream refused its key.
 * Requests already in flight, and the next page load, then find no session: this cookie
 * lets them say why (expired, revoked) instead of a bare "not signed in". It holds only
 * the reason.
 */
export const SESSION_ENDED_COOKIE = "session_ended";
const REMEMBER_SECONDS = 300;

export type EndedReason = Extract<ErrorCode, "key_expired" | "key_revoked" | "key_invalid">;
const reasons: readonly EndedReason[] = ["key_expired", "key_revoked", "key_invalid"];

export const endedReasonWords: Record<EndedReason, string> = {
  key_expired: "This API key has expired. Create a new key and sign in again.",
  key_revoked: "This API key has been revoked. Create a new key and sign in again.",
  key_invalid: "This API key is not valid. Check the key and sign in again.",
};

export function parseEndedReason(value: string | undefined): EndedReason | undefined {
  return reasons.find((reason) => reason === value);
}

function endedCookie(value: string, maxAge: number): string {
  return `${SESSION_ENDED_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}`;
}

/** Set-Cookie values that end the session and remember why. */
export function endSessionCookies(reason: EndedReason): string[] {
  return [clearedSessionCookie(), endedCookie(reason, REMEMBER_SECONDS)];
}

/** Set-Cookie value that forgets an earlier reason (a new session has begun, or the user signed out). */
export function forgetEndedReasonCookie(): string {
  return endedCookie("", 0);
}

/** The 401 for a request without a session, with the reason the last session ended if it is known. */
export function noSessionResponse(request: Request, requestId: string): Response {
  const reason = parseEndedReason(readCookie(request.headers.get("cookie"), SESSION_ENDED_COOKIE));
  if (reason) return errorResponse(401, reason, endedReasonWords[reason], { requestId });
  return errorResponse(401, "no_session", "You are not signed in.", { requestId });
}
