import "server-only";
import { createHash } from "node:crypto";
import type { z } from "zod";
import { settings } from "@/server/config/settings";
import { DashboardError } from "@/server/http/responses";
import { metrics } from "@/server/observability/metrics";
import { inUpstreamSpan } from "@/server/observability/tracing";
import { endpointById, type Endpoint, type EndpointId, type EndpointParams, upstreamPath } from "./endpoints";
import { UpstreamFailure, UpstreamHttpError } from "./errors";
import { redactSecrets } from "./redact";
import { exchange, requestWasSent } from "./transport";

export { UpstreamFailure, UpstreamHttpError };

/** Who calls the upstream: the key, the organization it works in, and what every answer is reported to. */
interface UpstreamCredentials {
  apiKey: string;
  organizationId?: string;
  requestId: string;
  /** Aborts the upstream request (the browser went away). */
  signal?: AbortSignal;
  /** Reads only: any endpoint that changes something is refused before it is sent (unattended work). */
  readOnly?: boolean;
  /** Told the status of every upstream answer (a 401 or 403 changes what the key may reach). */
  onAnswer?: (status: number) => void;
}

/** One call to an allow-listed endpoint. */
export interface UpstreamRequest {
  params?: EndpointParams;
  /** Already validated by the endpoint's query schema. */
  query?: Record<string, string | undefined>;
  /** Already validated by the endpoint's body schema. */
  body?: unknown;
  /** Overrides the credentials' signal for this call (a guarded action runs on when the browser leaves). */
  signal?: AbortSignal | null;
}

interface UpstreamCall extends UpstreamRequest, Omit<UpstreamCredentials, "signal"> {
  endpoint: Endpoint;
  signal?: AbortSignal;
}

/** Characters a header value may carry: visible ASCII, space and tab. */
const HEADER_SAFE = /^[\t\x20-\x7e]*$/;

const RETRYABLE = new Set([502, 503, 504]);
const MAX_RETRY_DELAY_MS = 2_000;

function buildUrl(call: UpstreamCall): string {
  return `${settings().upstream.baseUrl}${upstreamPath(call.endpoint, call.params ?? {}, call.query)}`;
}

/** Exactly the headers the contract needs; nothing from the browser's request is copied. */
function buildHeaders(call: UpstreamCall, body: string | undefined): Record<string, string> {
  if (!HEADER_SAFE.test(call.apiKey))
    throw new DashboardError(400, "bad_request", "apiKey: the API key contains characters a key cannot have.");
  if (call.organizationId !== undefined && !HEADER_SAFE.test(call.organizationId)) {
    throw new DashboardError(400, "bad_request", "organizationId: the organization ID contains characters an ID cannot have.");
  }
  const headers: Record<string, string> = { accept: "application/json", "x-api-key": call.apiKey, "x-request-id": call.requestId };
  if (call.organizationId) headers["x-service-organization-id"] = call.organizationId;
  if (body !== undefined) {
    headers["content-type"] = "application/json";
    headers["content-length"] = String(Buffer.byteLength(body));
  }
  return headers;
}

function retryDelayMs(response: Response | undefined): number {
  const retryAfter = Number(response?.headers.get("retry-after"));
  return Number.isFinite(retryAfter) && retryAfter > 0 ? Math.min(retryAfter * 1000, MAX_RETRY_DELAY_MS) : 250;
}

/** One signal that aborts with either; cheaper than AbortSignal.any, which keeps every signal it saw. */
function linkSignals(deadline: AbortSignal, caller: AbortSignal | undefined): AbortSignal {
  if (!caller) return deadline;
  const controller = new AbortController();
  const abort = (source: AbortSignal) => () => controller.abort(source.reason);
  if (caller.aborted) controller.abort(caller.reason);
  deadline.addEventListener("abort", abort(deadline), { once: true });
  caller.addEventListener("abort", abort(caller), { once: true });
  return controller.signal;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });

/** Error answers and action answers are small: past this, the text is cut (it is only read for its words). */
const CLEANED_BODY_LIMIT = 256 * 1024;

/** The answer cleaned of secrets (error answers and actions' answers); a body that breaks off while read stays broken in the copy. */
async function cleaned(response: Response, apiKey: string): Promise<Response> {
  const failing = response.status >= 400;
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    const broken = new ReadableStream({ start: (controller) => controller.error(error) });
    return new Response(broken, { status: response.status, headers: response.headers });
  }
  // A success answer keeps key-shaped words of its own (a campaign may be named "sk_sale_2026"); only the key goes.
  const clean = redactSecrets(failing ? text.slice(0, CLEANED_BODY_LIMIT) : text, [apiKey], { keyShaped: failing });
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(clean, { status: response.status, statusText: response.statusText, headers });
}

/** Sends an allow-listed call; the deadline covers the body. A GET is retried once on 502/503/504 or network failure, a mutation never. */
export async function sendUpstream(call: UpstreamCall): Promise<Response> {
  if (call.readOnly && call.endpoint.mutating) {
    throw new DashboardError(
      403,
      "forbidden",
      `${call.endpoint.method} ${call.endpoint.template} is not allowed for reads on someone's behalf.`,
    );
  }
  const endpoint = `${call.endpoint.method} ${call.endpoint.template}`;
  const started = performance.now();
  let response: Response;
  try {
    const traceHeaders: Record<string, string> = {};
    response = await inUpstreamSpan(
      `upstream ${endpoint}`,
      traceHeaders,
      () => exchangeWithRetry(call, traceHeaders),
      (answer) => answer.status,
    );
  } catch (error) {
    const outcome = error instanceof UpstreamFailure && error.code === "upstream_timeout" ? "timeout" : "unreachable";
    metrics.upstreamCalls.inc({ endpoint, outcome });
    throw error;
  }
  metrics.upstreamCalls.inc({ endpoint, outcome: `${Math.floor(response.status / 100)}xx` });
  metrics.upstreamSeconds.observe({ endpoint }, (performance.now() - started) / 1000);
  call.onAnswer?.(response.status);
  return response.status >= 400 || call.endpoint.mutating ? cleaned(response, call.apiKey) : response;
}

/** `traceHeaders`: the call's `traceparent`, when traces are exported. */
async function exchangeWithRetry(call: UpstreamCall, traceHeaders: Record<string, string>): Promise<Response> {
  const timeoutMs = settings().upstream.timeoutMs;
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = linkSignals(deadline, call.signal);
  const attempts = call.endpoint.mutating ? 1 : 2;
  const url = new URL(buildUrl(call));
  const body = call.body === undefined ? undefined : JSON.stringify(call.body);
  const headers = { ...buildHeaders(call, body), ...traceHeaders };

  for (let attempt = 1; ; attempt++) {
    let response: Response | undefined;
    try {
      response = await exchange(url, { method: call.endpoint.method, headers, body, signal });
    } catch (error) {
      const requestSent = requestWasSent(error);
      if (deadline.aborted) {
        throw new UpstreamFailure(
          504,
          "upstream_timeout",
          `The analytics service did not answer within ${Math.round(timeoutMs / 1000)} s.`,
          undefined,
          { requestSent },
        );
      }
      if (call.signal?.aborted || attempt >= attempts) {
        throw new UpstreamFailure(502, "upstream_unavailable", "The analytics service could not be reached.", undefined, {
          cause: error,
          requestSent,
        });
      }
    }
    if (response && response.status >= 300 && response.status < 400) {
      throw new UpstreamFailure(
        502,
        "upstream_unavailable",
        "The analytics service answered with an unexpected redirect.",
        response.headers.get("x-request-id") ?? undefined,
      );
    }
    if (response && (!RETRYABLE.has(response.status) || attempt >= attempts)) return response;
    await response?.body?.cancel();
    await sleep(retryDelayMs(response), signal);
    if (deadline.aborted) {
      throw new UpstreamFailure(504, "upstream_timeout", `The analytics service did not answer within ${Math.round(timeoutMs / 1000)} s.`);
    }
  }
}

/** One call whose JSON the dashboard itself reads: validated, or a 502 when it is not what the contract says. */
async function callUpstreamJson<T extends z.ZodType>(
  call: UpstreamCall,
  schema: T,
): Promise<{ data: z.infer<T>; upstreamRequestId?: string }> {
  const response = await sendUpstream(call);
  const upstreamRequestId = response.headers.get("x-request-id") ?? undefined;
  if (!response.ok) throw await UpstreamHttpError.from(response);
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    if (error instanceof Error && error.name === "TimeoutError") {
      throw new UpstreamFailure(504, "upstream_timeout", "The analytics service did not finish its answer in time.", upstreamRequestId);
    }
    throw new UpstreamFailure(502, "upstream_unavailable", "The analytics service's answer was cut off.", upstreamRequestId);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new UpstreamFailure(502, "upstream_malformed", "The analytics service answered with malformed JSON.", upstreamRequestId);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new UpstreamFailure(502, "upstream_malformed", "The analytics service answered in an unexpected shape.", upstreamRequestId);
  }
  return { data: parsed.data, upstreamRequestId };
}

/** The upstream as one caller sees it, the caller's credentials kept inside: per request from the session, or read-only from a grant. */
export interface UpstreamClient {
  readonly requestId: string;
  readonly organizationId?: string;
  /** Names the key in cache keys without holding it (a SHA-256 of it). */
  readonly keyIdentity: string;
  /** What aborts its calls (a request's, or a background run's). */
  readonly signal?: AbortSignal;
  send(endpoint: Endpoint | EndpointId, request?: UpstreamRequest): Promise<Response>;
  json<T extends z.ZodType>(
    endpoint: Endpoint | EndpointId,
    schema: T,
    request?: UpstreamRequest,
  ): Promise<{ data: z.infer<T>; upstreamRequestId?: string }>;
  /** The same caller with another signal or organization (one the caller has verified). */
  with(changes: Partial<Pick<UpstreamCredentials, "organizationId" | "signal">>): UpstreamClient;
}

export function upstreamClient(credentials: UpstreamCredentials): UpstreamClient {
  const callOf = (endpoint: Endpoint | EndpointId, request: UpstreamRequest = {}): UpstreamCall => {
    const { signal, ...rest } = request;
    return {
      ...credentials,
      ...rest,
      endpoint: typeof endpoint === "string" ? endpointById(endpoint) : endpoint,
      signal: signal === null ? undefined : (signal ?? credentials.signal),
    };
  };
  return {
    requestId: credentials.requestId,
    organizationId: credentials.organizationId,
    keyIdentity: createHash("sha256").update(credentials.apiKey).digest("hex"),
    signal: credentials.signal,
    send: (endpoint, request) => sendUpstream(callOf(endpoint, request)),
    json: (endpoint, schema, request) => callUpstreamJson(callOf(endpoint, request), schema),
    with: (changes) => upstreamClient({ ...credentials, ...changes }),
  };
}
