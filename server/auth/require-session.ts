import "server-only";
import { DashboardError } from "@/server/http/responses";
import { resolveSession, type ActiveSession } from "./current-session";
import { sessionMissingError } from "./ended";
import { sealedSessionCookie } from "./cookie";

export type { ActiveSession };

/** The request's session, or the 401 that says why there is none. */
export async function requireSession(request: Request): Promise<ActiveSession> {
  const { session, ended } = await resolveSession(sealedSessionCookie(request.headers.get("cookie")));
  if (session) return session;
  throw ended ? new DashboardError(401, ended) : sessionMissingError(request);
}
