import "server-only";
import { z } from "zod";
import { identifierSchema } from "@/lib/schemas/common";
import { readBody } from "@/lib/server/body";
import { DashboardError, errorResponse, invalidInput, newRequestId } from "@/lib/server/http";
import { logException, logRequest } from "@/lib/server/log";
import { isSameOrigin } from "@/lib/server/origin";
import { toDashboardError, withSessionEnded } from "./errors";
import { endSessionsOfKey } from "@/lib/session/active";
import { requireSession, type ActiveSession } from "./session-check";

const isKeyRefusal = (code: string): code is "key_expired" | "key_revoked" | "key_invalid" =>
  code === "key_expired" || code === "key_revoked" || code === "key_invalid";

/** Bodies the dashboard accepts: sign-in is small, actions a little larger. */
export const SIGN_IN_BODY_LIMIT = 16 * 1024;
export const ACTION_BODY_LIMIT = 64 * 1024;

interface BodySpec<B> {
  schema: z.ZodType<B>;
  maxBytes: number;
  /** Also accept application/x-www-form-urlencoded (a form posted before any script runs). */
  form?: boolean;
}

type Resolve<M, T> = T | ((match: M) => T);

/** What a route declares; the pipeline does the rest in the same order for every route. */
interface RouteSpec<M, Q, B> {
  /** Name in the log line (a template, never the raw path). */
  route: Resolve<M, string>;
  /** Runs first: resolves the path (404/405/400 as DashboardError). */
  match?: (url: URL, request: Request) => M;
  /** Whether a signed-in session is needed (default true). */
  session?: boolean;
  /** Whether the route changes state and so must come from our own pages (default: any method but GET). */
  mutation?: Resolve<M, boolean>;
  query?: Resolve<M, z.ZodType<Q>>;
  body?: Resolve<M, BodySpec<B> | undefined>;
}

export interface HandlerContext<M, Q, B> {
  request: Request;
  url: URL;
  requestId: string;
  match: M;
  /** The signed-in session (absent only on routes declared with `session: false`). */
  session: ActiveSession;
  query: Q;
  body: B;
  /** Whether the body came as a form post (answer with a redirect, not JSON). */
  form: boolean;
  /** From the request's x-service-organization-id (or organizationId in the query), else the session's. */
  organizationId?: string;
  /** Set by the handler when the upstream answered, so the log line carries both ids. */
  log: { upstreamRequestId?: string; code?: string };
}

function resolve<M, T>(value: Resolve<M, T>, match: M): T {
  return typeof value === "function" ? (value as (match: M) => T)(match) : value;
}

const noQuery = z.strictObject({});

/** The query, each parameter at most once, checked by the route's schema. */
function parseQuery<Q>(url: URL, schema: z.ZodType<Q>): Q {
  const names = [...url.searchParams.keys()];
  const repeated = names.find((name, index) => names.indexOf(name) !== index);
  if (repeated) throw new DashboardError(400, "bad_request", `Query parameter "${repeated}" is given more than once.`);
  const parsed = schema.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) throw invalidInput("The query", parsed.error.issues);
  return parsed.data;
}

/** The organization the request names in x-service-organization-id, if any. */
function organizationHeader(request: Request): string | undefined {
  const value = request.headers.get("x-service-organization-id") ?? undefined;
  if (value !== undefined && !identifierSchema.safeParse(value).success) {
    throw new DashboardError(400, "bad_request", "The x-service-organization-id header is not a valid organization ID.");
  }
  return value;
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

/**
 * The one way into every dashboard route: a request id, the path, the origin check for
 * mutations, the session, the query and a byte-limited body, the organization, then the
 * handler. Any failure becomes an answer in the contract's Error shape; every request writes
 * one log line with the dashboard's and the upstream's request ids.
 */
export function route<M = undefined, Q = Record<string, never>, B = undefined>(
  spec: RouteSpec<M, Q, B>,
  handler: (context: HandlerContext<M, Q, B>) => Promise<Response>,
): (request: Request, routeContext?: unknown) => Promise<Response> {
  return async (request) => {
    const started = performance.now();
    const requestId = newRequestId();
    const log: HandlerContext<M, Q, B>["log"] = {};
    let routeName = typeof spec.route === "string" ? spec.route : `${request.method} (unmatched)`;
    let response: Response;
    let code: string | undefined;
    let session: ActiveSession | undefined;
    try {
      const url = new URL(request.url);
      const match = spec.match ? spec.match(url, request) : (undefined as M);
      routeName = resolve(spec.route, match);
      const mutation = spec.mutation === undefined ? request.method !== "GET" && request.method !== "HEAD" : resolve(spec.mutation, match);
      if (mutation && !isSameOrigin(request)) throw new DashboardError(403, "cross_site");
      const organization = organizationHeader(request);
      if (spec.session !== false) session = await requireSession(request);
      const query = parseQuery(url, (spec.query ? resolve(spec.query, match) : noQuery) as z.ZodType<Q>);
      const bodySpec = spec.body ? resolve(spec.body, match) : undefined;
      let body = undefined as B;
      let form = false;
      if (bodySpec) {
        const read = await readBody(request, bodySpec.maxBytes, { form: bodySpec.form });
        form = read.form;
        const parsed = bodySpec.schema.safeParse(read.value);
        if (!parsed.success) throw invalidInput("The request body", parsed.error.issues);
        body = parsed.data;
      }
      const organizationId = organization ?? session?.data.organizationId;
      response = await handler({ request, url, requestId, match, session: session!, query, body, form, organizationId, log });
    } catch (error) {
      const known = toDashboardError(error);
      if (!known) logException(requestId, routeName, error);
      const failure = known ?? new DashboardError(500, "internal_error");
      code = failure.code;
      log.upstreamRequestId ??= failure.extra.upstreamRequestId;
      response = withSessionEnded(errorResponse(failure, requestId), failure, request);
      // The upstream refused the key: every session of it ends, on every instance.
      if (session && isKeyRefusal(failure.code)) await endSessionsOfKey(session.keyFingerprint, failure.code).catch(() => undefined);
    }
    // A browser that left before the answer is logged as such, not as the upstream's failure.
    const status = request.signal.aborted ? 499 : response.status;
    logRequest({
      method: request.method,
      route: routeName,
      status,
      durationMs: performance.now() - started,
      requestId,
      upstreamRequestId: log.upstreamRequestId,
      code: status === 499 ? "client_closed" : (code ?? log.code),
    });
    return setHeader(response, "x-dashboard-request-id", requestId);
  };
}
