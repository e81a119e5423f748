import "server-only";
import type { z } from "zod";
import { identifierSchema } from "@/lib/schemas/common";
import { errorResponse, issueDetails } from "./http";

/** A parsed part of a request, or the 400 to answer instead. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; response: Response };

/** The query, each parameter at most once, checked by the route's schema. */
export function parseQuery<S extends z.ZodType>(url: URL, schema: S, requestId: string): Parsed<z.infer<S>> {
  const names = [...url.searchParams.keys()];
  const repeated = names.find((name, index) => names.indexOf(name) !== index);
  if (repeated) {
    return {
      ok: false,
      response: errorResponse(400, "bad_request", `Query parameter "${repeated}" is given more than once.`, { requestId }),
    };
  }
  const parsed = schema.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) {
    return {
      ok: false,
      response: errorResponse(400, "bad_request", "The query is not valid.", { requestId, details: issueDetails(parsed.error.issues) }),
    };
  }
  return { ok: true, value: parsed.data };
}

/** The organization the request names in x-service-organization-id, if any. */
export function parseOrganizationHeader(request: Request, requestId: string): Parsed<string | undefined> {
  const header = request.headers.get("x-service-organization-id");
  if (header !== null && !identifierSchema.safeParse(header).success) {
    return {
      ok: false,
      response: errorResponse(400, "bad_request", "The x-service-organization-id header is not a valid organization ID.", { requestId }),
    };
  }
  return { ok: true, value: header ?? undefined };
}
