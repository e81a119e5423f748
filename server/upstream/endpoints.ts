import { z } from "zod";
import { buildPath } from "@/shared/url";
import type { AuditAction } from "@/shared/schemas/activity";
import { cloneCampaignRequestSchema } from "@/shared/schemas/campaign-clone";
import { contextQuerySchema } from "@/shared/schemas/context";
import { enrichRequestSchema } from "@/shared/schemas/enrich";
import { dashboardRangeRefinement, dimensionsQuerySchema, productsQuerySchema } from "@/shared/schemas/product-metrics";

/** The allow-list: every (method, path) of the contract we forward, with what may be sent. Nothing else reaches the upstream. */
type HttpMethod = "GET" | "POST" | "DELETE";

type Segment = string | { param: "storeUrl" | "pixelId" };

export type EndpointParams = Partial<Record<"storeUrl" | "pixelId", string>>;

export type EndpointId =
  | "context"
  | "me"
  | "organizations"
  | "stores"
  | "store-profile"
  | "catalogs"
  | "products"
  | "dimensions"
  | "enrich"
  | "clone"
  | "pixels-list"
  | "pixel-delete";

export interface Endpoint {
  id: EndpointId;
  method: HttpMethod;
  /** The path as written in the contract, used in logs. */
  template: string;
  segments: readonly Segment[];
  query: z.ZodType<Record<string, string | undefined>>;
  body?: z.ZodType;
  /** Whether the action changes state (guarded: same origin, never retried). */
  mutating: boolean;
  /** A guarded action: run once per Idempotency-Key and written to the audit log. */
  action?: AuditAction;
}

const noQuery = z.strictObject({});
const storeUrl = { param: "storeUrl" } as const;
const pixelId = { param: "pixelId" } as const;

function endpoint(
  id: EndpointId,
  method: HttpMethod,
  segments: readonly Segment[],
  options: { query?: Endpoint["query"]; body?: z.ZodType; action?: AuditAction } = {},
): Endpoint {
  const template = "/" + segments.map((segment) => (typeof segment === "string" ? segment : `{${segment.param}}`)).join("/");
  return {
    id,
    method,
    template,
    segments,
    query: options.query ?? noQuery,
    body: options.body,
    mutating: method !== "GET",
    action: options.action,
  };
}

const endpoints: readonly Endpoint[] = [
  endpoint("context", "GET", ["context"], { query: contextQuerySchema }),
  endpoint("me", "GET", ["me"]),
  endpoint("organizations", "GET", ["organizations"]),
  endpoint("stores", "GET", ["stores"]),
  endpoint("store-profile", "GET", ["store-data", storeUrl]),
  endpoint("catalogs", "GET", ["store-data", storeUrl, "catalogs"]),
  endpoint("products", "GET", ["ad-metrics", storeUrl, "products"], { query: productsQuerySchema.superRefine(dashboardRangeRefinement) }),
  endpoint("dimensions", "GET", ["ad-metrics", storeUrl, "dimensions"], {
    query: dimensionsQuerySchema.superRefine(dashboardRangeRefinement),
  }),
  endpoint("enrich", "POST", ["ad-metrics", storeUrl, "enrich"], { body: enrichRequestSchema }),
  endpoint("clone", "POST", ["platform", storeUrl, "actions", "clone-linkedin-campaign"], {
    body: cloneCampaignRequestSchema,
    action: "campaign-group.clone",
  }),
  endpoint("pixels-list", "GET", ["pixels", storeUrl]),
  endpoint("pixel-delete", "DELETE", ["pixels", storeUrl, pixelId], { action: "tracking-connection.remove" }),
];

type EndpointMatch =
  | { kind: "match"; endpoint: Endpoint; params: EndpointParams }
  | { kind: "method-not-allowed"; allow: HttpMethod[] }
  | { kind: "not-found" };

function matchSegments(endpoint: Endpoint, segments: readonly string[]) {
  if (endpoint.segments.length !== segments.length) return null;
  const params: EndpointParams = {};
  for (const [index, expected] of endpoint.segments.entries()) {
    const actual = segments[index]!;
    if (typeof expected === "string") {
      if (expected !== actual) return null;
    } else {
      params[expected.param] = actual;
    }
  }
  return params;
}

/** Finds the endpoint for already canonical, decoded path segments. */
export function matchEndpoint(method: string, segments: readonly string[]): EndpointMatch {
  const allow: HttpMethod[] = [];
  for (const candidate of endpoints) {
    const params = matchSegments(candidate, segments);
    if (!params) continue;
    if (candidate.method === method) return { kind: "match", endpoint: candidate, params };
    allow.push(candidate.method);
  }
  return allow.length > 0 ? { kind: "method-not-allowed", allow } : { kind: "not-found" };
}

/** Every endpoint the proxy forwards. */
export function allEndpoints(): readonly Endpoint[] {
  return endpoints;
}

export function endpointById(id: EndpointId): Endpoint {
  const found = endpoints.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`Unknown endpoint ${id}`);
  return found;
}

/** The upstream path of a call, with its query. */
export function upstreamPath(endpoint: Endpoint, params: EndpointParams, query?: Record<string, string | undefined>): string {
  return buildPath(
    endpoint.segments.map((segment) => (typeof segment === "string" ? segment : (params[segment.param] ?? ""))),
    query,
  );
}
