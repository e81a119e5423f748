/**
 * The embedded demo upstream: a plain node:http server implementing api-contract.md under
 * /v1, with seeded data, per-instance mutable state and fault injection.
 */

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { Anomalies, type AnomalyRule } from "./anomalies";
import { Restatements, type Restatement } from "./restatements";
import { authenticate, checkOrganizationHeader, requirePermission, resolveStore } from "./auth";
import { STREAMED, type KeyUse, type RequestContext, type Runtime } from "./context";
import { handleControl, resetRuntime } from "./control";
import { errorBody, HttpError, JSON_CONTENT_TYPE, newRequestId, sendError, sendText } from "./errors";
import { FaultInjector, ROUTE_IDS, type FaultRule, type RouteId } from "./faults";
import { readBody } from "./input";
import { matchRoute } from "./routes";
import { DemoState } from "./state";

export type { FaultRule } from "./faults";

export interface DemoUpstreamOptions {
  /** Default 4010; 0 picks a free port. */
  port?: number;
  /** Default "127.0.0.1". */
  host?: string;
  /** Default 42. */
  seed?: number;
  /** Multiplies products, ads and rows per day. Default 1. */
  scale?: number;
  faults?: FaultRule[];
  /** A channel's sales drop to near zero from a day (anomalies.ts); a control reset returns to these. */
  anomalies?: AnomalyRule[];
  /** Enables the /__control endpoints. Default false. */
  control?: boolean;
  /** Serves the odd store and its key (odd-fixtures.ts). Default false. */
  odd?: boolean;
}

export interface DemoUpstream {
  /** e.g. "http://127.0.0.1:4010/v1" */
  baseUrl: string;
  origin: string;
  port: number;
  setFaults(rules: FaultRule[]): void;
  setAnomalies(rules: AnomalyRule[]): void;
  /** Multiplies a store-day's revenue from now on (a restated day); a reset undoes it. */
  restate(restatement: Restatement): void;
  /** Restores the initial mutable state and clears faults and counters. */
  reset(): void;
  requestCounts(): Record<RouteId, number>;
  /** Which key made each authenticated call, oldest first (cleared by reset). */
  keyUses(): KeyUse[];
  close(): Promise<void>;
}

/** The same object, with a probe the tests use to see that streams stop on disconnect. */
interface DemoUpstreamInstance extends DemoUpstream {
  openStreams(): number;
}

/** Not JSON on purpose: starts like a body, then turns into an HTML error page. */
const MALFORMED_BODY = '{"ok":true,"data":[{"id":"1","value":12.5},{"id":"2","value":<html><body>502 Bad Gateway</body></html>';

function splitUrl(url: string): { path: string; query: URLSearchParams } {
  const index = url.indexOf("?");
  return index === -1
    ? { path: url, query: new URLSearchParams() }
    : { path: url.slice(0, index), query: new URLSearchParams(url.slice(index + 1)) };
}

function decodeSegments(path: string): string[] {
  try {
    return path
      .split("/")
      .slice(1)
      .map((segment) => decodeURIComponent(segment));
  } catch {
    throw new HttpError(400, "the request path is malformed: it contains invalid percent-encoding");
  }
}

async function handle(req: IncomingMessage, res: ServerResponse, runtime: Runtime): Promise<void> {
  const requestId = newRequestId();
  res.setHeader("x-request-id", requestId);
  let truncate = false;
  try {
    const { path, query } = splitUrl(req.url ?? "/");
    const segments = decodeSegments(path);
    if (segments[0] === "__control" && runtime.control) return await handleControl(req, res, runtime, segments);
    const method = req.method ?? "GET";
    const match = segments[0] === "v1" ? matchRoute(method, segments.slice(1)) : ({ kind: "not-found" } as const);
    if (match.kind === "not-found") throw new HttpError(404, `there is no endpoint at ${path}`);
    if (match.kind === "wrong-method") {
      throw new HttpError(405, `method ${method} is not allowed on ${path}; allowed: ${match.allow.join(", ")}`, {
        headers: { allow: match.allow.join(", ") },
      });
    }
    const { route, params } = match;
    runtime.counts[route.id] += 1;

    const decision = runtime.faults.decide(route.id, params.storeUrl);
    if (decision.latencyMs > 0) await sleep(decision.latencyMs);
    const outcome = decision.outcome;
    if (outcome?.kind === "drop") {
      req.socket.destroy();
      return;
    }
    if (outcome?.kind === "error") {
      const message =
        outcome.status === 503 ? "the service is temporarily unavailable; try again later" : "the service could not complete the request";
      throw new HttpError(outcome.status, message, outcome.retryAfter !== undefined ? { retryAfter: outcome.retryAfter } : {});
    }
    if (outcome?.kind === "malformed") return sendText(res, 200, MALFORMED_BODY);
    truncate = outcome?.kind === "truncate";

    const body = route.method === "POST" ? await readBody(req) : null;
    // Fixed order of checks: key → organization header → store → permission → validation (in the handler).
    const key = authenticate(req.headers, runtime.state.revokedKeys, runtime.odd);
    runtime.keyUses.push({ key: key.label, route: route.id, storeUrl: params.storeUrl ?? null });
    if (runtime.keyUses.length > 1_000) runtime.keyUses.shift();
    const organization = checkOrganizationHeader(req.headers, key, route.requiresOrgHeader === true);
    const store = params.storeUrl !== undefined ? resolveStore(key, params.storeUrl) : null;
    requirePermission(key, route.permission);
    const ctx: RequestContext = { req, res, requestId, params, query, body, key, organization, store, runtime, truncate };
    const result = await route.handler(ctx);
    if (result !== STREAMED) sendText(res, 200, JSON.stringify(result.json), { truncate });
  } catch (error) {
    if (res.headersSent) {
      res.destroy(); // a stream that fails midway cannot turn into an error response
      return;
    }
    const httpError = error instanceof HttpError ? error : new HttpError(500, "the service could not complete the request");
    sendError(res, requestId, httpError, { truncate });
  }
}

function zeroCounts(): Record<RouteId, number> {
  return Object.fromEntries(ROUTE_IDS.map((id) => [id, 0])) as Record<RouteId, number>;
}

function hostForUrl(host: string): string {
  if (host === "0.0.0.0" || host === "") return "127.0.0.1";
  if (host === "::") return "[::1]";
  return host.includes(":") ? `[${host}]` : host;
}

export async function startDemoUpstream(options: DemoUpstreamOptions = {}): Promise<DemoUpstreamInstance> {
  const host = options.host ?? "127.0.0.1";
  const seed = options.seed ?? 42;
  const scale = options.scale ?? 1;
  if (!Number.isSafeInteger(seed)) throw new Error(`seed must be an integer, got ${seed}`);
  if (!Number.isFinite(scale) || scale <= 0) throw new Error(`scale must be a positive number, got ${scale}`);
  const runtime: Runtime = {
    seed,
    scale,
    control: options.control ?? false,
    odd: options.odd ?? false,
    oddAtStart: options.odd ?? false,
    state: new DemoState(seed),
    faults: new FaultInjector(seed, options.faults ?? []),
    anomalies: new Anomalies(options.anomalies ?? []),
    restatements: new Restatements(),
    counts: zeroCounts(),
    keyUses: [],
    openStreams: 0,
  };
  // Idle keep-alive connections are held longer than fetch holds its own (4 s), so a fetch
  // never reuses a socket the server is closing at that moment (an ECONNRESET seen on a busy
  // machine). The dashboard's own reads retry such a reset.
  const server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => {
    void handle(req, res, runtime);
  });
  // Unparseable HTTP never reaches handle(); answer it as an Error object with a request ID too.
  server.on("clientError", (_error, socket: Duplex) => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const requestId = newRequestId();
    const body = JSON.stringify(errorBody(400, "the request is not valid HTTP", requestId));
    socket.end(
      `HTTP/1.1 400 Bad Request\r\ncontent-type: ${JSON_CONTENT_TYPE}\r\nx-request-id: ${requestId}\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 4010, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://${hostForUrl(host)}:${port}`;
  return {
    baseUrl: `${origin}/v1`,
    origin,
    port,
    setFaults: (rules) => runtime.faults.setRules(rules),
    setAnomalies: (rules) => runtime.anomalies.setRules(rules),
    restate: (restatement) => runtime.restatements.set(restatement),
    reset: () => resetRuntime(runtime),
    requestCounts: () => ({ ...runtime.counts }),
    keyUses: () => [...runtime.keyUses],
    openStreams: () => runtime.openStreams,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
