import "server-only";
import { z } from "zod";
import { readBody } from "./body";
import { DashboardError, errorResponse, invalidInput, newRequestId } from "./responses";
import { logException, logRequest } from "@/server/observability/log";
import { currentRequest } from "@/server/runtime/request-context";
import { isSameOrigin } from "./origin";
import { dropRefusedKey, keyClient, ringReach, type SessionKey } from "@/server/auth/ring";
import type { UpstreamClient } from "@/server/upstream/client";
import { toDashboardError, withSessionEnded } from "./failures";
import { nulProblem } from "./input";
import { namedOrganization, verifyScope, type Scope, type VerifiedScope } from "./scope";
import { requireSession, type ActiveSession } from "@/server/auth/require-session";
import { inReach } from "@/server/db/reach";

const isKeyRefusal = (code: string): code is "key_expired" | "key_revoked" | "key_invalid" =>
  code === "key_expired" || code === "key_revoked" || code === "key_invalid";

/** Bodies the dashboard accepts: sign-in is small, actions a little larger. */
export const SIGN_IN_BODY_LIMIT = 16 * 1024;
export const ACTION_BODY_LIMIT = 64 * 1024;

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Path parameters as Next.js hands them to a route (already decoded). */
export type RawParams = Record<string, string | string[] | undefined>;

interface BodySpec<B> {
  schema: z.ZodType<B>;
  maxBytes: number;
  /** Also accept application/x-www-form-urlencoded (a form posted before any script runs). */
  form?: boolean;
}

type Resolve<P, T> = T | ((params: P) => T);

/** What a route declares; the pipeline does the rest in the same order for every route. */
interface RouteSpec<P, Q, B> {
  /** The methods this handler answers, exported under these names by its route file. */
  methods: readonly HttpMethod[];
  /** The route file's folder under app/, in Next's syntax: "/api/stores/[storeUrl]/saved-views". */
  path: string;
  /** What the route works on: verified against the session's reach before the handler runs. */
  scope: Resolve<P, Scope>;
  /** Why a route declared `none` touches no store's data (the route table test requires it). */
  reason?: string;
  /** Reads the path parameters (404/400 as DashboardError); default: each one a plain text value. */
  params?: (raw: RawParams, url: URL, request: Request) => P;
  /** The name in the log line (a template, never the raw path); default "METHOD path". */
  name?: (params: P, method: string) => string;
  /** Whether a signed-in session is needed (default true). */
  session?: boolean;
  /** A health probe: its log line follows LOG_PROBES (an orchestrator asks every few seconds). */
  probe?: boolean;
  /** Whether the route changes state and so must come from our own pages (default: any method but GET). */
  mutation?: Resolve<P, boolean>;
  query?: Resolve<P, z.ZodType<Q>>;
  body?: Resolve<P, BodySpec<B> | undefined>;
}

interface HandlerContext<P, Q, B> {
  request: Request;
  url: URL;
  requestId: string;
  params: P;
  /** The signed-in session (absent only on routes declared with `session: false`). */
  session: ActiveSession;
  /** The stores the route works on, verified against the reach (absent only on routes without a session). */
  scope: VerifiedScope;
  /** The upstream as the key of the ring that reaches the scope, in the verified organization (absent only on routes without a session). */
  upstream: UpstreamClient;
  /** That key: on store routes, the key of that store (absent only on routes without a session). */
  key: SessionKey;
  /** The upstream as the key of one store of the scope (a reach route reading each store with its own key). */
  upstreamOf: (storeUrl: string) => UpstreamClient;
  query: Q;
  body: B;
  /** Whether the body came as a form post (answer with a redirect, not JSON). */
  form: boolean;
  /** Set by the handler when the upstream answered, so the log line carries both ids. */
  log: { upstreamRequestId?: string; code?: string };
}

/** What Next.js passes as the second argument of a route handler. */
interface RouteContext {
  params?: Promise<RawParams> | RawParams;
}

/** What the route table tells about a route. */
interface RouteInfo {
  readonly methods: readonly HttpMethod[];
  readonly path: string;
  readonly session: boolean;
  /** `by-path` when the scope depends on what the path names (the proxy: per upstream endpoint). */
  readonly scope: Scope | "by-path";
  /** Why the route works on no store (routes of scope `none`). */
  readonly reason?: string;
}

export type RouteHandler = ((request: Request, context?: RouteContext) => Promise<Response>) & { readonly spec: RouteInfo };

function resolve<P, T>(value: Resolve<P, T>, params: P): T {
  return typeof value === "function" ? (value as (params: P) => T)(params) : value;
}

/** Each path parameter a single value without NUL; no route takes more. */
function plainParams(raw: RawParams): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (typeof value !== "string") throw new DashboardError(404, "not_found");
    const problem = nulProblem(value);
    if (problem) throw new DashboardError(400, "bad_request", `The path parameter ${name} ${problem}.`);
    params[name] = value;
  }
  return params;
}

const noQuery = z.strictObject({});

/** The query, each parameter at most once and without NUL, checked by the route's schema (organizationId belongs to the scope). */
function parseQuery<Q>(url: URL, schema: z.ZodType<Q>): Q {
  const names = [...url.searchParams.keys()];
  const repeated = names.find((name, index) => names.indexOf(name) !== index);
  if (repeated) throw new DashboardError(400, "bad_request", `Query parameter "${repeated}" is given more than once.`);
  const values = Object.fromEntries([...url.searchParams].filter(([name]) => name !== "organizationId"));
  for (const [name, value] of Object.entries(values)) {
    const problem = nulProblem(value);
    if (problem) throw new DashboardError(400, "bad_request", `Query parameter "${name}" ${problem}.`);
  }
  const parsed = schema.safeParse(values);
  if (!parsed.success) throw invalidInput("The query", parsed.error.issues);
  return parsed.data;
}

/** A field of a JSON body that PostgreSQL could not store (a NUL character), named by its path. */
function bodyNulProblem(value: unknown, path: string[] = []): string | undefined {
  if (typeof value === "string") {
    const problem = nulProblem(value);
    return problem && `The request body field ${path.join(".") || "(the body)"} ${problem}.`;
  }
  if (typeof value !== "object" || value === null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const problem = bodyNulProblem(key, [...path, "(a key)"]) ?? bodyNulProblem(item, [...path, key]);
    if (problem) return problem;
  }
  return undefined;
}

/** The body, byte-limited, by its schema (a route that must count a malformed body reads it itself: sign-in). */
export async function readRouteBody<B>(request: Request, spec: BodySpec<B>): Promise<{ body: B; form: boolean }> {
  const read = await readBody(request, spec.maxBytes, { form: spec.form });
  const problem = bodyNulProblem(read.value);
  if (problem) throw new DashboardError(400, "bad_request", problem);
  const parsed = spec.schema.safeParse(read.value);
  if (!parsed.success) throw invalidInput("The request body", parsed.error.issues);
  return { body: parsed.data, form: read.form };
}

function setHeader(response: Response, name: string, value: string): Response {
  try {
    if (!response.headers.has(name)) response.headers.set(name, value);
    return response;
  } catch {
    // Immutable headers (a redirect): copy the answer.
    const copy = new Response(response.body, response);
    copy.headers.set(name, value);
    return copy;
  }
}

/** A key refused while others remain: only it leaves the ring, and the request is answered as for a store outside the reach. */
function keyLeftRing(key: SessionKey, failure: DashboardError): DashboardError {
  const stores = key.stores.map((store) => store.url).join(", ") || key.label;
  return new DashboardError(
    404,
    "not_found",
    `The upstream refused the key for ${stores} (${failure.code.replace("key_", "")}): it has left your key ring; your other stores stay.`,
    { upstreamRequestId: failure.extra.upstreamRequestId },
  );
}

/**
 * The one way into every route: request id, params, origin check, session, scope against the reach, query, limited body, handler. Failures
 * answer in the Error shape; each request logs one line with both request ids.
 */
export function route<P = Record<string, string>, Q = Record<string, never>, B = undefined>(
  spec: RouteSpec<P, Q, B>,
  handler: (context: HandlerContext<P, Q, B>) => Promise<Response>,
): RouteHandler {
  const template = spec.path.replace(/\[(?:\.\.\.)?([^\]]+)\]/g, "{$1}");
  const run = async (request: Request, routeContext?: RouteContext): Promise<Response> => {
    const started = performance.now();
    const context = currentRequest();
    const requestId = context?.requestId ?? newRequestId();
    const log: HandlerContext<P, Q, B>["log"] = {};
    let routeName = `${request.method} ${template}`;
    let response: Response;
    let code: string | undefined;
    let session: ActiveSession | undefined;
    let key: SessionKey | undefined;
    try {
      const url = new URL(request.url);
      const raw = (await routeContext?.params) ?? {};
      const params = spec.params ? spec.params(raw, url, request) : (plainParams(raw) as P);
      if (spec.name) routeName = spec.name(params, request.method);
      const mutation = spec.mutation === undefined ? request.method !== "GET" && request.method !== "HEAD" : resolve(spec.mutation, params);
      if (mutation && !isSameOrigin(request)) throw new DashboardError(403, "cross_site");
      const named = namedOrganization(request, url);
      let scope: VerifiedScope | undefined;
      let upstream: UpstreamClient | undefined;
      let upstreamOf: HandlerContext<P, Q, B>["upstreamOf"] = () => {
        throw new DashboardError(404, "not_found");
      };
      if (spec.session !== false) {
        session = await requireSession(request);
        const ring = await ringReach(session, requestId, request.signal);
        const storeUrl = (params as { storeUrl?: string } | undefined)?.storeUrl;
        scope = verifyScope(resolve(spec.scope, params), ring.reach, session, named, storeUrl);
        // Every upstream call goes with the key of what it names: a store's own key, never another of the ring.
        key = (scope.store && ring.keyOfStore(scope.store.url)) ?? ring.keyOfOrganization(scope.organizationId);
        upstream = keyClient(session, key, requestId, request.signal).with({ organizationId: scope.organizationId ?? undefined });
        const { stores } = scope;
        upstreamOf = (storeUrl) => {
          const store = stores.find((candidate) => candidate.url === storeUrl);
          const storeKey = store && ring.keyOfStore(store.url);
          if (!store || !storeKey) throw new DashboardError(404, "not_found", `Store ${storeUrl} is not in your reach.`);
          return keyClient(session!, storeKey, requestId, request.signal).with({ organizationId: store.organizationId });
        };
      }
      const query = parseQuery(url, (spec.query ? resolve(spec.query, params) : noQuery) as z.ZodType<Q>);
      const bodySpec = spec.body ? resolve(spec.body, params) : undefined;
      const { body, form } = bodySpec ? await readRouteBody(request, bodySpec) : { body: undefined as B, form: false };
      // Every query of the handler sees and writes the rows of the route's stores only (row-level security).
      const storeUrls = scope?.stores.map((store) => store.url) ?? [];
      response = await inReach(storeUrls, () =>
        handler({
          request,
          url,
          requestId,
          params,
          session: session!,
          scope: scope!,
          upstream: upstream!,
          key: key!,
          upstreamOf,
          query,
          body,
          form,
          log,
        }),
      );
    } catch (error) {
      const known = toDashboardError(error);
      if (!known) logException(requestId, routeName, error);
      let failure = known ?? new DashboardError(500, "internal_error");
      // The upstream refused the key: it leaves every ring holding it, on every instance; a session left without keys ends.
      if (session && key && isKeyRefusal(failure.code)) {
        const kept = await dropRefusedKey(session.id, key, failure.code).catch(() => false);
        if (kept) failure = keyLeftRing(key, failure);
      }
      code = failure.code;
      log.upstreamRequestId ??= failure.extra.upstreamRequestId;
      response = withSessionEnded(errorResponse(failure, requestId), failure, request);
    }
    // A browser that left before the answer is logged as such, not as the upstream's failure.
    const status = request.signal.aborted ? 499 : response.status;
    const line = {
      method: request.method,
      route: routeName,
      status,
      durationMs: performance.now() - started,
      requestId,
      upstreamRequestId: log.upstreamRequestId,
      code: status === 499 ? "client_closed" : (code ?? log.code),
    };
    // Under the dashboard's server, the server writes the line once the answer is sent; alone (tests), the route does.
    if (context)
      Object.assign(context, { route: routeName, upstreamRequestId: line.upstreamRequestId, code: line.code, probe: spec.probe });
    else logRequest(line);
    return setHeader(response, "x-dashboard-request-id", requestId);
  };
  const info: RouteInfo = {
    methods: spec.methods,
    path: spec.path,
    session: spec.session !== false,
    scope: typeof spec.scope === "string" ? spec.scope : "by-path",
    reason: spec.reason,
  };
  return Object.assign(run, { spec: info });
}
