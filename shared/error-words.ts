import { isSessionEndingCode, type ErrorCode } from "@/shared/schemas/error";

/** Where a key is made, as the service's own settings name it (contract, part 5). */
const MAKE_A_KEY =
  "Create a new one in the analytics service: choose the store, open Settings, then MCP, and under “Access key fallback” give the key a name and an expiry date.";

/** What each error code means to a person: one wording for the server's messages, the sign-in page and every failure panel. */
export const errorWords: Record<ErrorCode, string> = {
  bad_request: "The request is not valid.",
  payload_too_large: "The request is too large.",
  cross_site: "Requests from other sites may not change anything here.",
  not_found: "Not found.",
  method_not_allowed: "This method is not allowed here.",
  no_session: "You are not signed in.",
  session_revoked: "This session was signed out, here or from another browser. Sign in again to continue.",
  session_expired: "Your session has reached its time limit. Sign in again to continue.",
  session_idle: "Your session ended after a period without activity. Sign in again to continue.",
  key_expired: `This API key has expired. ${MAKE_A_KEY} Then sign in with it.`,
  key_revoked: `This API key has been revoked. ${MAKE_A_KEY} Then sign in with it.`,
  key_invalid: "This API key is not valid. Check that it was copied whole and sign in again.",
  key_unscoped: `This is an older key that is not tied to a store, and the service no longer accepts it. ${MAKE_A_KEY}`,
  forbidden: "This key may not do that here.",
  rate_limited: "Too many failed sign-in attempts. Wait a minute and try again.",
  name_taken: "That name is already used here. Choose another.",
  idempotency_conflict: "This action was already sent with different details. Start it again.",
  idempotency_in_progress: "This action is still running. Wait a moment and check again.",
  outcome_unknown: "The analytics service's answer to this action was lost: it may or may not have run.",
  upstream_timeout: "The analytics service did not answer in time. Try again.",
  upstream_unavailable: "The analytics service could not be reached. Try again in a moment.",
  upstream_malformed: "The analytics service answered with something the dashboard cannot read.",
  range_too_long: "This date range took too long to read. Try a shorter range.",
  database_unavailable: "The dashboard's database is unavailable. Try again in a moment.",
  internal_error: "Something went wrong in the dashboard.",
  delegation_off: "Unattended reads are off on this dashboard: its operator has not set DELEGATION_KEY.",
  limit_reached: "This store has reached a stated limit. Remove something first.",
  grant_needed: "Grant this dashboard read access to the store first: digests read while nobody is signed in.",
  ring_full: "Your key ring is full: it holds at most 20 keys. Remove a store before adding another.",
  store_in_ring: "That store is already in your key ring. Remove it first if you want to use this key for it instead.",
  ring_changed: "Your key ring changed in another tab or window meanwhile: nothing was changed. Reload the page and try again.",
  already_decided: "Someone already decided about this message: it is not offered again.",
  cannot_send_again: "This message cannot be sent again. Ask the recipient whether it arrived.",
};

/** Why the user is on the sign-in page, from the `reason` or `error` code in its URL. */
export function signInNotice(code: string | undefined): string | undefined {
  if (code === "signed_out") return "You have signed out.";
  if (!code || !(code in errorWords)) return undefined;
  const words = errorWords[code as ErrorCode];
  return isSessionEndingCode(code) && code !== "no_session" ? `Your session ended. ${words}` : words;
}

/**
 * An upstream message as a marketer reads it: the permission's code name the service adds in
 * parentheses ("(missing permission tracking-connections:delete)") goes; its sentence stays.
 */
export function plainServiceWords(message: string): string {
  return message.replace(/\s*\(missing permission [^)]*\)/gi, "").trim();
}
