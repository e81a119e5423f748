import "server-only";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { parseEndedReason, SESSION_ENDED_COOKIE } from "./ended";
import { SECURE_SESSION_COOKIE, SESSION_COOKIE, summarize, unsealSession, type SessionSummary } from "./session";

/** The session of the page being rendered, read once per render. */
const readPageSession = cache(async () => {
  const jar = await cookies();
  return unsealSession((jar.get(SECURE_SESSION_COOKIE) ?? jar.get(SESSION_COOKIE))?.value);
});

/**
 * Every dashboard page calls this itself: without a session, the user is sent to sign in
 * (told why, when the key was refused) and brought back afterwards.
 */
export async function requirePageSession(returnTo: string): Promise<SessionSummary> {
  const session = await readPageSession();
  if (!session) {
    const reason = parseEndedReason((await cookies()).get(SESSION_ENDED_COOKIE)?.value);
    redirect(`/sign-in?${reason ? `reason=${reason}&` : ""}next=${encodeURIComponent(returnTo)}`);
  }
  return summarize(session);
}

export async function hasPageSession(): Promise<boolean> {
  return (await readPageSession()) !== null;
}

/** For layouts: the summary when signed in. Redirecting is left to each page, which knows its own path. */
export async function pageSessionSummary(): Promise<SessionSummary | null> {
  const session = await readPageSession();
  return session && summarize(session);
}
