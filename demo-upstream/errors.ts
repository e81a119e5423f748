/**
 * The contract's Error object (part 7) and the low-level response helpers. Every response,
 * success or error, goes through here so `x-request-id` and the content type are never missed.
 */

import { randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import type { z } from "zod";

export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

interface ErrorExtras {
  details?: unknown;
  retryAfter?: string;
  headers?: Record<string, string>;
}

/** Thrown anywhere in a handler; the server turns it into an Error object response. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extras: ErrorExtras = {},
  ) {
    super(message);
    this.name = "HttpError";
  }
}

/** Request IDs are for tracing, not data, so real randomness is right here. */
export function newRequestId(): string {
  return `req_${randomBytes(8).toString("hex")}`;
}

export function errorBody(status: number, message: string, requestId: string, extras: ErrorExtras = {}): Record<string, unknown> {
  return {
    error: message,
    ...(status >= 500 ? { requestId } : {}),
    ...(extras.details !== undefined ? { details: extras.details } : {}),
    retryAfter: extras.retryAfter ?? null,
  };
}

interface SendOptions {
  headers?: Record<string, string>;
  /** Fault injection: send only part of the body, then cut the connection. */
  truncate?: boolean;
}

export function sendText(res: ServerResponse, status: number, text: string, options: SendOptions = {}): void {
  if (res.headersSent || res.destroyed) return;
  const body = Buffer.from(text, "utf8");
  res.writeHead(status, {
    "content-type": JSON_CONTENT_TYPE,
    "content-length": String(body.length),
    "cache-control": "no-store",
    ...options.headers,
  });
  if (options.truncate) {
    // Wait until the first half is flushed, so the client really sees a partial body.
    res.write(body.subarray(0, Math.max(1, Math.floor(body.length / 2))), () => res.destroy());
    return;
  }
  res.end(body);
}

export function sendJson(res: ServerResponse, status: number, value: unknown, options: SendOptions = {}): void {
  sendText(res, status, JSON.stringify(value), options);
}

export function sendError(res: ServerResponse, requestId: string, error: HttpError, options: SendOptions = {}): void {
  const headers: Record<string, string> = { ...options.headers, ...error.extras.headers };
  if (error.extras.retryAfter !== undefined) headers["retry-after"] = error.extras.retryAfter;
  sendJson(res, error.status, errorBody(error.status, error.message, requestId, error.extras), { ...options, headers });
}

interface IssueDetail {
  path: string;
  message: string;
}

/** zod issues as `{ path: "payload.budget", message }`; unknown keys get one issue each. */
function issueDetails(error: z.ZodError, unknownKeyMessage = "is not a known field"): IssueDetail[] {
  const out: IssueDetail[] = [];
  for (const issue of error.issues) {
    const base = issue.path.map(String).join(".");
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) out.push({ path: base ? `${base}.${key}` : key, message: unknownKeyMessage });
    } else if (issue.code === "invalid_type" && /received undefined$/.test(issue.message)) {
      out.push({ path: base, message: "is required" });
    } else {
      out.push({ path: base, message: issue.message });
    }
  }
  return out;
}

export function validationError(where: "query" | "body", error: z.ZodError): HttpError {
  const issues = issueDetails(error, where === "query" ? "is not a known parameter" : "is not a known field");
  const first = issues[0];
  const what = where === "query" ? "the query" : "the request body";
  // Schema messages are written to follow the field name ("startDate must be …"); zod's own start upper-case.
  const joiner = first && /^[A-Z]/.test(first.message) ? ": " : " ";
  const summary = first ? (first.path ? `${first.path}${joiner}${first.message}` : first.message) : "it does not match the expected shape";
  return new HttpError(400, `${what} is invalid: ${summary}`, { details: { issues } });
}
