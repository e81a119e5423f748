/** Why the user is on the sign-in page, in words, from the `reason` the pages put in its URL. */
const reasons: Record<string, string> = {
  key_expired: "Your session ended because the API key has expired. Sign in with a new key.",
  key_revoked: "Your session ended because the API key was revoked. Sign in with a new key.",
  key_invalid: "Your session ended because the API key is no longer valid. Sign in again.",
  no_session: "Your session has ended. Sign in again to continue.",
  signed_out: "You have signed out.",
};

export function signInReasonText(reason: string | undefined): string | undefined {
  return reason ? reasons[reason] : undefined;
}
