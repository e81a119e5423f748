import "server-only";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { DatabaseUnavailable } from "@/server/db/database";
import { resolveSession } from "./current-session";
import { parseEndedReason, SESSION_ENDED_COOKIE } from "./ended";
import { SECURE_SESSION_COOKIE, SESSION_COOKIE, summarize, type SessionSummary } from "./cookie";

/**
 * The session of the page being rendered, read and checked against its row once per render.
 * Without its database the dashboard cannot tell whether a session still counts: the page
 * says so instead of failing.
 */
const readPageSession = cache(async () => {
  const jar = await cookies();
  try {
    return await resolveSession((jar.get(SECURE_SESSION_COOKIE) ?? jar.get(SESSION_COOKIE))?.value);
  } catch (error) {
    if (error instanceof DatabaseUnavailable) return { unavailable: true as const };
    throw error;
  }
});

/**
 * Every dashboard page calls this itself: without a session, the user is sent to sign in
 * (told why, when it ended) and brought back afterwards.
 */
export async function requirePageSession(returnTo: string): Promise<SessionSummary> {
  const read = await readPageSession();
  if ("unavailable" in read) redirect(`/unavailable?next=${encodeURIComponent(returnTo)}`);
  const { session, ended } = read;
  if (!session) {
    const reason = ended ?? parseEndedReason((await cookies()).get(SESSION_ENDED_COOKIE)?.value);
    redirect(`/sign-in?${reason ? `reason=${reason}&` : ""}next=${encodeURIComponent(returnTo)}`);
  }
  return summarize(session.data);
}

export async function hasPageSession(): Promise<boolean> {
  const read = await readPageSession();
  return "session" in read && read.session !== undefined;
}

/** For layouts: the summary when signed in. Redirecting is left to each page, which knows its own path. */
export async function pageSessionSummary(): Promise<SessionSummary | null> {
  const read = await readPageSession();
  return "session" in read && read.session ? summarize(read.session.data) : null;
}

/** For checks a page makes with the key itself (the store's reach): the active session, if any. */
export async function activePageSession() {
  const read = await readPageSession();
  return "session" in read ? (read.session ?? null) : null;
}
