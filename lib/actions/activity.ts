import "server-only";
import { errorResponse, jsonResponse, newRequestId } from "@/lib/server/http";
import { logRequest } from "@/lib/server/log";
import { sessionFromRequest } from "@/lib/session/session";
import type { ActivityResponse } from "@/lib/schemas/activity";
import { auditLog } from "./audit";

const ACTIVITY_LIMIT = 200;

/** GET /api/activity: the guarded actions of the signed-in key's organization, newest first. */
export async function activityResponse(request: Request): Promise<Response> {
  const started = performance.now();
  const requestId = newRequestId();
  const session = await sessionFromRequest(request);
  let response: Response;
  if (!session) {
    response = errorResponse(401, "no_session", "You are not signed in.", { requestId });
  } else {
    // A session without an organization can be matched to no one's history: it sees none.
    const entries = session.organizationId ? await auditLog().list(session.organizationId, ACTIVITY_LIMIT) : [];
    response = jsonResponse({ entries } satisfies ActivityResponse, { requestId });
  }
  logRequest({ method: request.method, route: "GET /api/activity", status: response.status, durationMs: performance.now() - started, requestId });
  return response;
}
