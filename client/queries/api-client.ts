import type { z } from "zod";
import { buildPath } from "@/shared/url";
import { dashboardErrorSchema, isSessionEndingCode } from "@/shared/schemas/error";

/** A failed call to one of the dashboard's own routes, with what the pages need to explain it. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | undefined,
    readonly requestId: string | undefined,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "ApiRequestError";
  }

  get endsSession(): boolean {
    return this.status === 401 && (this.code === undefined || isSessionEndingCode(this.code));
  }
}

/** The ApiRequestError for a failed answer of a dashboard route. */
async function errorFromResponse(response: Response): Promise<ApiRequestError> {
  const requestId = response.headers.get("x-request-id") ?? undefined;
  const text = await response.text().catch(() => "");
  try {
    const parsed = dashboardErrorSchema.safeParse(JSON.parse(text));
    if (parsed.success) {
      const { error, code, requestId: upstreamId, details } = parsed.data;
      return new ApiRequestError(response.status, error, code, upstreamId ?? requestId, details);
    }
  } catch {
    // Not JSON: described by its status below.
  }
  return new ApiRequestError(response.status, `The dashboard answered with status ${response.status}.`, undefined, requestId);
}

const requestIds = new WeakMap<object, string>();

/** Remembers which request an answer came from, so that a panel that cannot draw it can name it. */
export function rememberRequestId<T>(data: T, requestId: string | undefined): T {
  if (requestId && typeof data === "object" && data !== null) requestIds.set(data, requestId);
  return data;
}

/** The request id of the answer an object was read from, if it is known. */
export function requestIdOf(data: unknown): string | undefined {
  return typeof data === "object" && data !== null ? requestIds.get(data) : undefined;
}

interface ApiOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  body?: unknown;
  organizationId?: string;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

/** One call to a dashboard route: a lost connection and an error answer both become an ApiRequestError; an ok answer is returned unread. */
export async function dashboardFetch(path: string, options: ApiOptions & { accept: string }): Promise<Response> {
  const headers: Record<string, string> = { accept: options.accept, ...options.headers };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (options.organizationId) headers["x-service-organization-id"] = options.organizationId;
  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? "GET",
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
      credentials: "same-origin",
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ApiRequestError(0, "The dashboard could not be reached. Check your connection and try again.", "network", undefined);
  }
  if (!response.ok) throw await errorFromResponse(response);
  return response;
}

/** An NDJSON answer's lines as they arrive, each checked by `schema`; a line cut off or out of shape is an ApiRequestError. */
export async function* ndjsonLines<T>(response: Response, schema: z.ZodType<T>, signal?: AbortSignal): AsyncGenerator<T> {
  const requestId = response.headers.get("x-request-id") ?? undefined;
  if (!response.body) throw new ApiRequestError(502, "The answer had no body.", "upstream_malformed", requestId);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  for (;;) {
    let lines: T[];
    try {
      const { value, done } = await reader.read();
      if (done) return;
      const parts = (buffered + value).split("\n");
      buffered = parts.pop()!;
      lines = parts.map((part) => schema.parse(JSON.parse(part)));
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new ApiRequestError(502, "The answer was cut off before the figures were complete.", "upstream_malformed", requestId);
    }
    yield* lines;
  }
}

/** Calls a dashboard route and validates its JSON with the resource's schema. */
export async function apiFetch<T extends z.ZodType>(path: string, schema: T, options: ApiOptions = {}): Promise<z.infer<T>> {
  return (await apiFetchWithHeaders(path, schema, options)).data;
}

/** Like apiFetch, and also gives the answer's headers and request id (shown in success notices). */
export async function apiFetchWithHeaders<T extends z.ZodType>(
  path: string,
  schema: T,
  options: ApiOptions = {},
): Promise<{ data: z.infer<T>; headers: Headers; requestId?: string }> {
  const response = await dashboardFetch(path, { ...options, accept: "application/json" });
  const requestId = response.headers.get("x-request-id") ?? undefined;
  let json: unknown;
  try {
    json = await response.json();
  } catch {
    throw new ApiRequestError(502, "The answer was cut off or was not valid JSON.", "upstream_malformed", requestId);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new ApiRequestError(502, "The answer did not have the expected shape.", "upstream_malformed", requestId);
  return { data: rememberRequestId(parsed.data, requestId), headers: response.headers, requestId };
}

/** Path of a proxied upstream call, with each path segment encoded. */
export function v1Path(segments: readonly string[], query?: Record<string, string | undefined>): string {
  return `/api/v1${buildPath(segments, query)}`;
}
