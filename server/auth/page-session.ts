import "server-only";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { database, DatabaseUnavailable } from "@/server/db/database";
import { takeDropNotices } from "@/server/auth/session-keys";
import { resolveSession } from "./current-session";
import { parseEndedReason, SESSION_ENDED_COOKIE } from "./ended";
import { joinSessionParts, type SessionSummary } from "./cookie";
import { summarizeSession } from "./ring";

/** The rendered page's session, checked once per render; without the database the page says so instead of failing. */
const readPageSession = cache(async () => {
  const jar = await cookies();
  try {
    return await resolveSession(joinSessionParts((name) => jar.get(name)?.value));
  } catch (error) {
    if (error instanceof DatabaseUnavailable) return { unavailable: true as const };
    throw error;
  }
});

/** Every page calls this itself: without a session, the user signs in (told why it ended) and comes back. */
export async function requirePageSession(returnTo: string): Promise<SessionSummary> {
  const read = await readPageSession();
  if ("unavailable" in read) redirect(`/unavailable?next=${encodeURIComponent(returnTo)}`);
  const { session, ended } = read;
  if (!session) {
    // A page is asked for with the browser's newest cookie: an older copy here is one kept elsewhere.
    const reason =
      (ended === "ring_changed" ? "session_revoked" : ended) ?? parseEndedReason((await cookies()).get(SESSION_ENDED_COOKIE)?.value);
    redirect(`/sign-in?${reason ? `reason=${reason}&` : ""}next=${encodeURIComponent(returnTo)}`);
  }
  return summarizeSession(session);
}

export async function hasPageSession(): Promise<boolean> {
  const read = await readPageSession();
  return "session" in read && read.session !== undefined;
}

/** For layouts: the summary when signed in. Redirecting is left to each page, which knows its own path. */
export async function pageSessionSummary(): Promise<SessionSummary | null> {
  const read = await readPageSession();
  return "session" in read && read.session ? summarizeSession(read.session) : null;
}

/** For checks a page makes with the key itself (the store's reach): the active session, if any. */
export async function activePageSession() {
  const read = await readPageSession();
  return "session" in read ? (read.session ?? null) : null;
}

/** Keys of the page's ring that the upstream refused since the last page: each is told once, naming its stores. */
export async function pageRingNotices(): Promise<{ storeUrls: string[]; label: string; reason: string }[]> {
  const session = await activePageSession();
  if (!session) return [];
  const dropped = await takeDropNotices(await database(), session.id, new Date());
  return dropped.map((row) => ({ storeUrls: row.storeUrls, label: row.label, reason: row.droppedReason ?? "key_invalid" }));
}
