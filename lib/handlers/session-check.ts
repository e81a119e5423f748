import "server-only";
import { DashboardError } from "@/lib/server/http";
import { resolveSession, type ActiveSession } from "@/lib/session/active";
import { sessionMissingError } from "@/lib/session/ended";
import { sealedSessionCookie } from "@/lib/session/session";

export type { ActiveSession };

/** The request's session, or the 401 that says why there is none. */
export async function requireSession(request: Request): Promise<ActiveSession> {
  const { session, ended } = await resolveSession(sealedSessionCookie(request.headers.get("cookie")));
  if (session) return session;
  throw ended ? new DashboardError(401, ended) : sessionMissingError(request);
}
