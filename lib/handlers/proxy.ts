import "server-only";
import { DashboardError } from "@/lib/server/http";
import { sendUpstream, UpstreamHttpError, type UpstreamCall } from "@/lib/upstream/client";
import { matchEndpoint } from "@/lib/upstream/endpoints";
import { canonicalizePath } from "@/lib/upstream/path";
import { runGuardedAction } from "./actions";
import { ACTION_BODY_LIMIT, route } from "./pipeline";

const PROXY_PREFIX = "/api/v1";

/** The contract's endpoint a browser path names, or the 404/405 that says it names none. */
function matchProxyPath(url: URL, request: Request) {
  const path = url.pathname.startsWith(`${PROXY_PREFIX}/`) ? url.pathname.slice(PROXY_PREFIX.length) : "";
  const canonical = canonicalizePath(path);
  if (!canonical.ok) {
    const status = canonical.reason.includes("percent-encoding") ? 400 : 404;
    throw new DashboardError(status, status === 400 ? "bad_request" : "not_found", `No such endpoint: ${canonical.reason}.`);
  }
  const match = matchEndpoint(request.method, canonical.segments);
  if (match.kind === "not-found") throw new DashboardError(404, "not_found", "No such endpoint.");
  if (match.kind === "method-not-allowed") {
    throw new DashboardError(405, "method_not_allowed", `Use ${match.allow.join(" or ")} on this endpoint.`, {
      headers: { allow: match.allow.join(", ") },
    });
  }
  return match;
}

/** One upstream call, answered with only its status, content-type, request id, retry-after and body (streamed). */
async function forward(call: UpstreamCall, log: { upstreamRequestId?: string }): Promise<Response> {
  const upstream = await sendUpstream(call);
  log.upstreamRequestId = upstream.headers.get("x-request-id") ?? undefined;
  // A refused key ends the session: the pipeline says why and clears the cookie.
  if (upstream.status === 401) throw await UpstreamHttpError.from(upstream);
  const headers = new Headers({
    "content-type": upstream.headers.get("content-type") ?? "application/json",
    "x-request-id": log.upstreamRequestId ?? call.requestId,
    "cache-control": "no-store",
  });
  const retryAfter = upstream.headers.get("retry-after");
  if (retryAfter && (upstream.status === 503 || upstream.status === 429)) headers.set("retry-after", retryAfter);
  return new Response(upstream.body, { status: upstream.status, headers });
}

/**
 * /api/v1/...: forwards one browser request to the upstream /v1 when, and only when, it is
 * one of the contract's calls: canonical path, allowed method, valid query and body, a
 * session, and (for mutations) a same-origin request. Guarded actions (clone, remove) also
 * go through the idempotency and audit guard.
 */
export const proxyToUpstream = route(
  {
    route: (match) => `${match.endpoint.method} ${match.endpoint.template}`,
    match: matchProxyPath,
    mutation: (match) => match.endpoint.mutating,
    query: (match) => match.endpoint.query,
    body: (match) => (match.endpoint.body ? { schema: match.endpoint.body, maxBytes: ACTION_BODY_LIMIT } : undefined),
  },
  async ({ request, requestId, match, session, query, body, organizationId, log }) => {
    const { endpoint, params } = match;
    const call: UpstreamCall = {
      endpoint,
      params,
      query,
      body,
      apiKey: session.data.apiKey,
      organizationId,
      requestId,
      // A guarded action runs to its end even if the browser goes away, so that a retry can replay its outcome.
      signal: endpoint.action ? undefined : request.signal,
    };
    if (!endpoint.action) return forward(call, log);
    // The engine sees the upstream's raw answer: it alone decides what the outcome was.
    const answer = await runGuardedAction(request, endpoint.action, session, call, () => sendUpstream(call));
    log.upstreamRequestId = answer.headers.get("x-request-id") ?? undefined;
    if (answer.status === 401) throw await UpstreamHttpError.from(answer);
    return answer;
  },
);
