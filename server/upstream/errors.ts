import { apiErrorSchema, type ApiError, type ErrorCode } from "@/shared/schemas/error";

/** Which of the contract's 401 reasons an upstream message names. */
export function unauthorizedCode(message: string): Extract<ErrorCode, "key_expired" | "key_revoked" | "key_invalid"> {
  if (/expired/i.test(message)) return "key_expired";
  if (/revoked/i.test(message)) return "key_revoked";
  return "key_invalid";
}

/** A 403 caused by an old key without store scope (contract part 5.5) rather than a missing permission. */
export function forbiddenCode(message: string): Extract<ErrorCode, "key_unscoped" | "forbidden"> {
  return /scope/i.test(message) && /(legacy|older|replace|without|no store)/i.test(message) ? "key_unscoped" : "forbidden";
}

/** The upstream could not be reached in time or answered something unusable. */
export class UpstreamFailure extends Error {
  /** False only when the request never left (connection refused, DNS): an action surely did not run. */
  readonly requestSent: boolean;
  constructor(
    readonly status: 502 | 504,
    readonly code: "upstream_timeout" | "upstream_unavailable" | "upstream_malformed",
    message: string,
    readonly upstreamRequestId?: string,
    options?: { cause?: unknown; requestSent?: boolean },
  ) {
    super(message, options);
    this.requestSent = options?.requestSent ?? true;
  }
}

/** The upstream answered with an error status; `body` is its Error object. */
export class UpstreamHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiError,
    readonly upstreamRequestId?: string,
    /** When to try again, from the answer's Retry-After header or its Error body. */
    readonly retryAfter?: string,
  ) {
    super(body.error);
  }

  static async from(response: Response): Promise<UpstreamHttpError> {
    const body = await readUpstreamError(response);
    const retryAfter = response.headers.get("retry-after") ?? body.retryAfter ?? undefined;
    return new UpstreamHttpError(response.status, body, response.headers.get("x-request-id") ?? undefined, retryAfter);
  }
}

/** Reads an upstream error body as the contract's Error object, whatever it really holds. */
async function readUpstreamError(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => "");
  try {
    const parsed = apiErrorSchema.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
  } catch {
    // Not JSON: fall through to a generic message.
  }
  return { error: `The analytics service answered with status ${response.status}.` };
}
