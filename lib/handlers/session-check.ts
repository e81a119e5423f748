import "server-only";
import { sessionMissingError } from "@/lib/session/ended";
import { sessionFromRequest, type SessionData } from "@/lib/session/session";

/** A signed-in request's session: the cookie's contents. */
export interface ActiveSession {
  data: SessionData;
}

/** The request's session, or the 401 that says why there is none. */
export async function requireSession(request: Request): Promise<ActiveSession> {
  const data = await sessionFromRequest(request);
  if (!data) throw sessionMissingError(request);
  return { data };
}
