import "server-only";
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { vouchForRequest } from "@/server/http/forwarded";
import { rawPathProblem } from "@/server/http/raw-path";
import { logger } from "@/server/observability/log";
import { metrics } from "@/server/observability/metrics";
import { inRequestSpan } from "@/server/observability/tracing";
import type { DashboardServerState } from "./lifecycle";
import { runInRequestContext, type RequestContext } from "./request-context";

/**
 * The HTTP server in front of Next.js: refuses malformed raw paths, vouches for address, protocol and host (TRUST_PROXY_HOPS), cuts slow
 * clients, gives each request an id, and writes its log line, metrics and span once answered, whatever handled it.
 */
interface ServerOptions {
  trustProxyHops: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  logProbes: "all" | "failures" | "none";
}

/** An X-Request-Id a trusted proxy may hand over (nginx's $request_id is 32 hex digits). */
const ADOPTABLE_ID = /^[A-Za-z0-9._:@-]{8,128}$/;

function requestIdOf(request: IncomingMessage, hops: number): { requestId: string; adopted: boolean } {
  const incoming = request.headers["x-request-id"];
  if (hops > 0 && typeof incoming === "string" && ADOPTABLE_ID.test(incoming)) return { requestId: incoming, adopted: true };
  return { requestId: `dash_${randomUUID()}`, adopted: false };
}

/** A path as logs, metrics and spans may hold it: an unsubscribe link's token is its holder's alone. */
function loggedPath(path: string): string {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // Refused as a malformed path before anything else reads it.
  }
  return /^\/+api\/+unsubscribe(\/|$)/i.test(decoded) ? "/api/unsubscribe/{token}" : path;
}

/** What a request was, for its log line and metrics, when no route said so. */
function kindOf(path: string): string {
  if (path.startsWith("/_next/static/") || path === "/icon.svg" || path === "/favicon.ico") return "static";
  return path.startsWith("/api/") ? "api (unmatched)" : "page";
}

function shouldLog(context: RequestContext, status: number, probes: ServerOptions["logProbes"]): boolean {
  if (!context.probe) return true;
  return probes === "all" || (probes === "failures" && status >= 400);
}

/** The request's one line, its metrics and the end of its span, once the answer is sent (or the client left). */
function settle(request: IncomingMessage, response: ServerResponse, context: RequestContext, path: string, options: ServerOptions): void {
  const status = response.writableFinished ? response.statusCode : 499;
  const durationMs = performance.now() - context.startedAt;
  const route = context.route ?? `${request.method} ${kindOf(path)}`;
  metrics.requests.inc({ method: request.method, route, status: String(status) });
  metrics.requestSeconds.observe({ method: request.method, route }, durationMs / 1000);
  if (!shouldLog(context, status, options.logProbes)) return;
  const line = {
    method: request.method,
    route,
    ...(context.route ? {} : { path }),
    status,
    durationMs: Math.round(durationMs * 10) / 10,
    requestId: context.requestId,
    ...(context.adoptedRequestId ? { requestIdFrom: "x-request-id" } : {}),
    ...(context.upstreamRequestId ? { upstreamRequestId: context.upstreamRequestId } : {}),
    ...(status === 499 ? { code: "client_closed" } : context.code ? { code: context.code } : {}),
  };
  if (status >= 500) logger.error(line, "request");
  else logger.info(line, "request");
}

function refuse(response: ServerResponse, context: RequestContext, message: string): void {
  context.route = "(refused path)";
  context.code = "bad_request";
  const body = JSON.stringify({
    error: message,
    code: "bad_request",
    requestId: context.requestId,
    dashboardRequestId: context.requestId,
    retryAfter: null,
  });
  response.writeHead(400, {
    "content-type": "application/json; charset=utf-8",
    "x-request-id": context.requestId,
    "cache-control": "no-store",
  });
  response.end(body);
}

export function createDashboardServer(
  handle: (request: IncomingMessage, response: ServerResponse) => Promise<void>,
  options: ServerOptions,
  state: DashboardServerState,
): Server {
  const server = createServer(
    // Timeouts are enforced by a sweep every connectionsCheckingInterval (30 s by default); 1 s keeps them close to their value.
    {
      headersTimeout: options.headersTimeoutMs,
      requestTimeout: options.requestTimeoutMs,
      keepAliveTimeout: options.keepAliveTimeoutMs,
      connectionsCheckingInterval: 1_000,
    },
    (request, response) => {
      const { requestId, adopted } = requestIdOf(request, options.trustProxyHops);
      const context: RequestContext = { requestId, adoptedRequestId: adopted, startedAt: performance.now() };
      const path = loggedPath((request.url ?? "/").split("?")[0]!);
      // Settled once the answer is sent (or the client left) and the handler is done, so a route that
      // finishes after its client has gone still names itself in the line.
      let handled: Promise<unknown> = Promise.resolve();
      response.once("close", () => void handled.finally(() => settle(request, response, context, path, options)));
      response.setHeader("x-dashboard-request-id", requestId);
      const problem = rawPathProblem(request.url);
      if (problem) return refuse(response, context, `Bad request: ${problem}.`);
      vouchForRequest(request.headers, request.socket as { remoteAddress?: string; encrypted?: boolean }, options.trustProxyHops);
      // Over HTTPS, browsers are told to come back only over HTTPS.
      if (request.headers["x-dashboard-proto"] === "https")
        response.setHeader("strict-transport-security", "max-age=63072000; includeSubDomains");
      if (state.draining) response.setHeader("connection", "close");
      // Once a response is sent during the drain, its keep-alive connection is idle: close it.
      response.once("finish", () => state.draining && setImmediate(() => server.closeIdleConnections()));
      runInRequestContext(context, () =>
        inRequestSpan(
          `${request.method} ${path}`,
          request.headers,
          { "http.request.method": request.method ?? "", "dashboard.request_id": requestId },
          (span) => {
            response.once("close", () => {
              span.setAttribute("http.response.status_code", response.statusCode);
              if (context.route) span.updateName(context.route);
              span.end();
            });
            handled = handle(request, response).catch(() => undefined);
          },
        ),
      );
    },
  );
  return server;
}
