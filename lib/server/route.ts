import "server-only";
import type { z } from "zod";
import { noSessionResponse } from "@/lib/session/ended";
import { sessionFromRequest, type SessionData } from "@/lib/session/session";
import { upstreamErrorResponse } from "@/lib/upstream/errors";
import { newRequestId } from "./http";
import { logRequest } from "./log";
import { parseOrganizationHeader, parseQuery } from "./request-input";

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
  if (!session) return respond(noSessionResponse(request, requestId));

  const query = parseQuery(new URL(request.url), querySchema, requestId);
  if (!query.ok) return respond(query.response);
  const organization = parseOrganizationHeader(request, requestId);
  if (!organization.ok) return respond(organization.response);

  try {
    return respond(
      await handler({ request, requestId, session, query: query.value, organizationId: organization.value ?? session.organizationId }),
    );
  } catch (error) {
    return respond(upstreamErrorResponse(error, requestId));
  }
}
