/** Query and body parsing: strict (unknown parameters are errors), with zod issues as details. */

import type { IncomingMessage } from "node:http";
import { z } from "zod";
import { HttpError, validationError } from "./errors";

const MAX_BODY_BYTES = 1024 * 1024;

/** For endpoints that take no query parameters at all. */
export const noQuerySchema = z.strictObject({});

function queryObject(query: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of query) {
    if (Object.hasOwn(out, name))
      throw new HttpError(400, `the query is invalid: parameter ${name} is given more than once`, {
        details: { issues: [{ path: name, message: "must be given once" }] },
      });
    out[name] = value;
  }
  return out;
}

export function parseQuery<S extends z.ZodType>(schema: S, query: URLSearchParams): z.output<S> {
  const result = schema.safeParse(queryObject(query));
  if (!result.success) throw validationError("query", result.error);
  return result.data;
}

export function parseBody<S extends z.ZodType>(schema: S, body: string | null): z.output<S> {
  if (body === null || body.trim() === "") throw new HttpError(400, "the request body is empty: send a JSON object");
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw new HttpError(400, "the request body is not valid JSON");
  }
  const result = schema.safeParse(value);
  if (!result.success) throw validationError("body", result.error);
  return result.data;
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, "the request body is too large (limit 1 MiB)");
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}
