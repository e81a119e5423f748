import "server-only";
import { DashboardError } from "@/server/http/responses";
import { UpstreamHttpError, type UpstreamClient, type UpstreamRequest } from "@/server/upstream/client";
import { matchEndpoint, type Endpoint } from "@/server/upstream/endpoints";
import { canonicalizePath } from "@/server/upstream/path";
import { runGuardedAction } from "./guarded-actions";
import { ringContext } from "./ring-context";
import { ACTION_BODY_LIMIT, route } from "@/server/http/pipeline";
import type { Scope } from "@/server/http/scope";

const PROXY_PREFIX = "/api/v1";

/** The contract endpoint a path names, or a 404/405. The raw path is canonicalized here, so no encoding can name another upstream path. */
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

/** What an endpoint works on: a store of its path, the reach's stores in one organization (the store list), or the key's own identity. */
export function scopeOf(endpoint: Endpoint): Scope {
  if (endpoint.segments.some((segment) => typeof segment !== "string" && segment.param === "storeUrl")) return "store";
  return endpoint.id === "stores" ? "reach" : "none";
}

/** One upstream call, answered with only its status, content-type, request id, retry-after and body (streamed). */
async function forward(
  client: UpstreamClient,
  endpoint: Endpoint,
  call: UpstreamRequest,
  log: { upstreamRequestId?: string },
): Promise<Response> {
  const upstream = await client.send(endpoint, call);
  log.upstreamRequestId = upstream.headers.get("x-request-id") ?? undefined;
  // A refused key ends the session: the pipeline says why and clears the cookie.
  if (upstream.status === 401) throw await UpstreamHttpError.from(upstream);
  const headers = new Headers({
    "content-type": upstream.headers.get("content-type") ?? "application/json",
    "x-request-id": log.upstreamRequestId ?? client.requestId,
    "cache-control": "no-store",
  });
  const retryAfter = upstream.headers.get("retry-after");
  if (retryAfter && (upstream.status === 503 || upstream.status === 429)) headers.set("retry-after", retryAfter);
  return new Response(upstream.body, { status: upstream.status, headers });
}

/**
 * /api/v1/...: forwards a browser request to the upstream only when it is one of the contract's calls (path, method, query, body, session,
 * same origin for mutations); guarded actions also pass the idempotency and audit guard.
 */
export const proxyToUpstream = route(
  {
    methods: ["GET", "POST", "PUT", "PATCH", "DELETE"],
    path: "/api/v1/[...path]",
    params: (_raw, url, request) => {
      const match = matchProxyPath(url, request);
      return { ...match, storeUrl: match.params.storeUrl };
    },
    name: (match) => `${match.endpoint.method} ${match.endpoint.template}`,
    scope: (match) => scopeOf(match.endpoint),
    mutation: (match) => match.endpoint.mutating,
    query: (match) => match.endpoint.query,
    body: (match) => (match.endpoint.body ? { schema: match.endpoint.body, maxBytes: ACTION_BODY_LIMIT } : undefined),
  },
  async ({ request, params: match, session, scope, upstream, key, query, body, log }) => {
    const { endpoint, params } = match;
    // The organization is part of the scope; GET /context also takes it in its query.
    const forwardedQuery = endpoint.id === "context" && scope.named ? { ...query, organizationId: scope.organizationId! } : query;
    // A ring's context lists every store of its keys, each key asked for its own.
    if (endpoint.id === "context" && session.keys.length > 1)
      return ringContext(session, upstream.requestId, request.signal, scope.named ? scope.organizationId! : undefined, log);
    if (!endpoint.action) return forward(upstream, endpoint, { params, query: forwardedQuery, body }, log);
    // A guarded action runs to its end even if the browser goes away, so that a retry can replay its outcome.
    // The engine sees the upstream's raw answer: it alone decides what the outcome was.
    const call = { params, query: forwardedQuery, body, signal: null };
    const answer = await runGuardedAction(request, endpoint, endpoint.action, session, scope, upstream, call, key.fingerprint);
    log.upstreamRequestId = answer.headers.get("x-request-id") ?? undefined;
    if (answer.status === 401) throw await UpstreamHttpError.from(answer);
    return answer;
  },
);
