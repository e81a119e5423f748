import "server-only";
import { runGuardedAction } from "@/lib/actions/guard";
import { errorResponse, issueDetails, newRequestId } from "@/lib/server/http";
import { logRequest } from "@/lib/server/log";
import { isSameOrigin } from "@/lib/server/origin";
import { parseOrganizationHeader, parseQuery, type Parsed } from "@/lib/server/request-input";
import { noSessionResponse } from "@/lib/session/ended";
import { sessionFromRequest } from "@/lib/session/session";
import { readUpstreamError, sendUpstream, type UpstreamCall } from "./client";
import { type Endpoint, matchEndpoint } from "./endpoints";
import { unauthorizedResponse, upstreamErrorResponse } from "./errors";
import { canonicalizePath } from "./path";

const PROXY_PREFIX = "/api/v1";
const MAX_BODY_BYTES = 64 * 1024;

async function parseBody(endpoint: Endpoint, request: Request, requestId: string): Promise<Parsed<unknown>> {
  if (!endpoint.body) return { ok: true, value: undefined };
  const text = await request.text();
  if (text.length > MAX_BODY_BYTES)
    return { ok: false, response: errorResponse(413, "bad_request", "The request body is too large.", { requestId }) };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, response: errorResponse(400, "bad_request", "The request body is not valid JSON.", { requestId }) };
  }
  const parsed = endpoint.body.safeParse(json);
  if (!parsed.success) {
    return {
      ok: false,
      response: errorResponse(400, "bad_request", "The request body is not valid for this action.", {
        requestId,
        details: issueDetails(parsed.error.issues),
      }),
    };
  }
  return { ok: true, value: parsed.data };
}

/**
 * Forwards one browser request to the upstream /v1 when, and only when, it is one of the
 * contract's calls: canonical path, allowed method, valid query and body, a session,
 * and (for mutations) a same-origin request. The answer is streamed back with only its
 * status, content-type and request id. Guarded actions (clone, remove) also go through
 * the idempotency and audit guard of lib/actions.
 */
export async function proxyToUpstream(request: Request): Promise<Response> {
  const started = performance.now();
  const requestId = newRequestId();
  const url = new URL(request.url);
  let route = "(unmatched)";
  const finish = (response: Response) => {
    logRequest({
      method: request.method,
      route,
      status: response.status,
      durationMs: performance.now() - started,
      requestId,
      upstreamRequestId: response.headers.get("x-request-id") ?? undefined,
    });
    return response;
  };

  const path = url.pathname.startsWith(`${PROXY_PREFIX}/`) ? url.pathname.slice(PROXY_PREFIX.length) : "";
  const canonical = canonicalizePath(path);
  if (!canonical.ok) return finish(errorResponse(404, "not_found", `No such endpoint: ${canonical.reason}.`, { requestId }));
  const match = matchEndpoint(request.method, canonical.segments);
  if (match.kind === "not-found") return finish(errorResponse(404, "not_found", "No such endpoint.", { requestId }));
  if (match.kind === "method-not-allowed") {
    return finish(
      errorResponse(405, "method_not_allowed", `Use ${match.allow.join(" or ")} on this endpoint.`, {
        requestId,
        headers: { allow: match.allow.join(", ") },
      }),
    );
  }
  const { endpoint, params } = match;
  route = `${endpoint.method} ${endpoint.template}`;

  if (endpoint.mutating && !isSameOrigin(request)) {
    return finish(errorResponse(403, "cross_site", "Cross-site requests may not change anything.", { requestId }));
  }
  const session = await sessionFromRequest(request);
  if (!session) return finish(noSessionResponse(request, requestId));

  const query = parseQuery(url, endpoint.query, requestId);
  if (!query.ok) return finish(query.response);
  const body = await parseBody(endpoint, request, requestId);
  if (!body.ok) return finish(body.response);
  const organization = parseOrganizationHeader(request, requestId);
  if (!organization.ok) return finish(organization.response);

  const call: UpstreamCall = {
    endpoint,
    params,
    query: query.value,
    body: body.value,
    apiKey: session.apiKey,
    organizationId: organization.value ?? session.organizationId,
    requestId,
    // A guarded action runs to its end even if the browser goes away, so that a retry can replay its outcome.
    signal: endpoint.action ? undefined : request.signal,
  };
  if (!endpoint.action) return finish(await forward(call));
  return finish(
    await runGuardedAction(request, {
      action: endpoint.action,
      session,
      requestId,
      endpoint,
      params,
      body: body.value,
      organizationId: call.organizationId,
      send: () => forward(call),
    }),
  );
}

/** One upstream call, answered with only its status, content-type, request id and body (streamed). */
async function forward(call: UpstreamCall): Promise<Response> {
  try {
    const upstream = await sendUpstream(call);
    const upstreamRequestId = upstream.headers.get("x-request-id") ?? call.requestId;
    if (upstream.status === 401) {
      return unauthorizedResponse((await readUpstreamError(upstream)).error, upstreamRequestId, true);
    }
    const headers = new Headers({
      "content-type": upstream.headers.get("content-type") ?? "application/json",
      "x-request-id": upstreamRequestId,
      "cache-control": "no-store",
    });
    return new Response(upstream.body, { status: upstream.status, headers });
  } catch (error) {
    return upstreamErrorResponse(error, call.requestId);
  }
}
