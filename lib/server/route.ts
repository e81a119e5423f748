import "server-only";
import type { z } from "zod";
import { identifierSchema } from "@/lib/schemas/common";
import { sessionFromRequest, type SessionData } from "@/lib/session/session";
import { upstreamErrorResponse } from "@/lib/upstream/errors";
import { errorResponse, issueDetails, newRequestId } from "./http";
import { logRequest } from "./log";

export interface RouteContext<Q> {
  request: Request;
  requestId: string;
  session: SessionData;
  query: Q;
  /** From the request's x-service-organization-id, else the session's. */
  organizationId?: string;
}

/**
 * What every dashboard-only route repeats: a request id, the session, a validated query
 * (each parameter once), the organization header, the mapping of upstream failures to
 * Error-shaped answers, and one log line.
 */
export async function handleWithSession<S extends z.ZodType>(
  request: Request,
  route: string,
  querySchema: S,
  handler: (context: RouteContext<z.infer<S>>) => Promise<Response>,
): Promise<Response> {
  const started = performance.now();
  const requestId = newRequestId();
  const respond = (response: Response) => {
    logRequest({ method: request.method, route, status: response.status, durationMs: performance.now() - started, requestId });
    return response;
  };
  const session = await sessionFromRequest(request);
  if (!session) return respond(errorResponse(401, "no_session", "You are not signed in.", { requestId }));

  const search = new URL(request.url).searchParams;
  const names = [...search.keys()];
  const repeated = names.find((name, index) => names.indexOf(name) !== index);
  if (repeated) return respond(errorResponse(400, "bad_request", `Query parameter "${repeated}" is given more than once.`, { requestId }));
  const query = querySchema.safeParse(Object.fromEntries(search));
  if (!query.success) {
    return respond(errorResponse(400, "bad_request", "The query is not valid.", { requestId, details: issueDetails(query.error.issues) }));
  }
  const organizationHeader = request.headers.get("x-service-organization-id");
  if (organizationHeader !== null && !identifierSchema.safeParse(organizationHeader).success) {
    return respond(errorResponse(400, "bad_request", "The x-service-organization-id header is not a valid organization ID.", { requestId }));
  }

  try {
    return respond(await handler({ request, requestId, session, query: query.data, organizationId: organizationHeader ?? session.organizationId }));
  } catch (error) {
    return respond(upstreamErrorResponse(error, requestId));
  }
}
