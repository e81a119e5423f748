import "server-only";
import { contextSchema, type Context } from "@/lib/schemas/context";
import { SESSION_STORES_LIMIT, signInRequestSchema } from "@/lib/schemas/session";
import { errorResponse, issueDetails, jsonResponse, newRequestId } from "@/lib/server/http";
import { resolveDemoKey } from "@/lib/server/demo-keys";
import { isSameOrigin } from "@/lib/server/origin";
import { clientAddress, FailureLimiter } from "@/lib/server/rate-limit";
import { callUpstreamJson, UpstreamHttpError } from "@/lib/upstream/client";
import { endpointById } from "@/lib/upstream/endpoints";
import { upstreamErrorResponse } from "@/lib/upstream/errors";
import { forgetEndedReasonCookie, noSessionResponse } from "./ended";
import { clearedSessionCookie, newSessionData, sessionFromRequest, sessionSetCookie, summarize, type SessionData } from "./session";

const globalLimiter = globalThis as typeof globalThis & { __signInLimiter?: FailureLimiter };
/** At most 10 failed sign-ins per client per minute. Kept on globalThis: one per process, whatever the bundling. */
const limiter = (globalLimiter.__signInLimiter ??= new FailureLimiter(10, 60_000));

/** What the browser learns about a session: never the key. */
function sessionBody(session: SessionData, context?: Context) {
  return { session: summarize(session), ...(context ? { context } : {}) };
}

export async function signIn(request: Request): Promise<Response> {
  const requestId = newRequestId();
  if (!isSameOrigin(request)) return errorResponse(403, "cross_site", "Cross-site sign-in is not allowed.", { requestId });
  const client = clientAddress(request);
  const wait = limiter.retryAfterSeconds(client);
  if (wait > 0) {
    return errorResponse(429, "rate_limited", `Too many failed sign-in attempts. Try again in ${wait} s.`, {
      requestId,
      retryAfter: String(wait),
    });
  }

  let json: unknown;
  try {
    json = await request.json();
  } catch {
    return errorResponse(400, "bad_request", "The request body is not valid JSON.", { requestId });
  }
  const input = signInRequestSchema.safeParse(json);
  if (!input.success) {
    return errorResponse(400, "bad_request", input.error.issues[0]?.message ?? "Invalid sign-in.", {
      requestId,
      details: issueDetails(input.error.issues),
    });
  }

  const { organizationId } = input.data;
  const apiKey = "apiKey" in input.data ? input.data.apiKey : resolveDemoKey(input.data.demoKeyId);
  if (!apiKey) return errorResponse(400, "bad_request", "That demo key is not available.", { requestId });
  try {
    const { data: context } = await callUpstreamJson(
      { endpoint: endpointById("context"), query: { organizationId }, apiKey, organizationId, requestId },
      contextSchema,
    );
    const organization = context.organizations.find((candidate) => candidate.id === organizationId) ?? context.organizations[0];
    const session = newSessionData({
      apiKey,
      organizationId: organizationId ?? organization?.id,
      organization: organization && { id: organization.id, name: organization.name },
      stores: (organization?.stores ?? []).slice(0, SESSION_STORES_LIMIT).map(({ url, type, currency }) => ({ url, type, currency })),
      user: { name: context.user.name, email: context.user.email },
    });
    const response = jsonResponse(sessionBody(session, context), { requestId, headers: { "set-cookie": await sessionSetCookie(session) } });
    response.headers.append("set-cookie", forgetEndedReasonCookie());
    return response;
  } catch (error) {
    if (error instanceof UpstreamHttpError && error.status < 500) limiter.recordFailure(client);
    return withoutSessionCookie(upstreamErrorResponse(error, requestId));
  }
}

/** A failed sign-in never leaves a session behind, not even the previous one. */
function withoutSessionCookie(response: Response): Response {
  response.headers.set("set-cookie", clearedSessionCookie());
  return response;
}

export async function currentSession(request: Request): Promise<Response> {
  const requestId = newRequestId();
  const session = await sessionFromRequest(request);
  if (!session) return noSessionResponse(request, requestId);
  return jsonResponse(sessionBody(session), { requestId });
}

export async function signOut(request: Request): Promise<Response> {
  const requestId = newRequestId();
  if (!isSameOrigin(request)) return errorResponse(403, "cross_site", "Cross-site sign-out is not allowed.", { requestId });
  const response = new Response(null, { status: 204, headers: { "set-cookie": clearedSessionCookie(), "x-request-id": requestId } });
  response.headers.append("set-cookie", forgetEndedReasonCookie());
  return response;
}
