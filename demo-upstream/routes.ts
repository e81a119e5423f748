/**
 * The route table of /v1: contract table 4.1 plus the discovery endpoints and the
 * tracking-connection list (DESIGN.md). Paths are matched segment by segment, after each
 * segment was percent-decoded, so `{storeUrl}` is always exactly one segment.
 */

import type { Handler } from "./context";
import type { RouteId } from "./faults";
import type { Permission } from "./keys";
import { cloneLinkedInCampaign, enrich } from "@/demo-upstream/handlers/assets";
import { context, me, organizations, stores } from "@/demo-upstream/handlers/identity";
import { dimensions, products } from "@/demo-upstream/handlers/metrics";
import { catalogs, deletePixel, listPixels, storeProfile } from "@/demo-upstream/handlers/store-data";

type Method = "GET" | "POST" | "DELETE";

interface RouteDef {
  id: RouteId;
  method: Method;
  /** Literal segments, or ":storeUrl" / ":pixelId" placeholders. */
  pattern: readonly string[];
  permission: Permission;
  requiresOrgHeader?: boolean;
  handler: Handler;
}

const READ: Permission = "analytics:read";

const ROUTES: readonly RouteDef[] = [
  { id: "context", method: "GET", pattern: ["context"], permission: READ, handler: context },
  { id: "me", method: "GET", pattern: ["me"], permission: READ, handler: me },
  { id: "organizations", method: "GET", pattern: ["organizations"], permission: READ, handler: organizations },
  { id: "stores", method: "GET", pattern: ["stores"], permission: READ, requiresOrgHeader: true, handler: stores },
  { id: "store-profile", method: "GET", pattern: ["store-data", ":storeUrl"], permission: READ, handler: storeProfile },
  { id: "catalogs", method: "GET", pattern: ["store-data", ":storeUrl", "catalogs"], permission: READ, handler: catalogs },
  { id: "products", method: "GET", pattern: ["ad-metrics", ":storeUrl", "products"], permission: READ, handler: products },
  { id: "dimensions", method: "GET", pattern: ["ad-metrics", ":storeUrl", "dimensions"], permission: READ, handler: dimensions },
  { id: "enrich", method: "POST", pattern: ["ad-metrics", ":storeUrl", "enrich"], permission: READ, handler: enrich },
  {
    id: "clone",
    method: "POST",
    pattern: ["platform", ":storeUrl", "actions", "clone-linkedin-campaign"],
    permission: "campaigns:clone",
    handler: cloneLinkedInCampaign,
  },
  { id: "pixels-list", method: "GET", pattern: ["pixels", ":storeUrl"], permission: READ, handler: listPixels },
  {
    id: "pixel-delete",
    method: "DELETE",
    pattern: ["pixels", ":storeUrl", ":pixelId"],
    permission: "tracking-connections:delete",
    handler: deletePixel,
  },
];

type RouteMatch =
  | { kind: "found"; route: RouteDef; params: { storeUrl?: string; pixelId?: string } }
  | { kind: "wrong-method"; allow: string[] }
  | { kind: "not-found" };

function matchPattern(pattern: readonly string[], segments: readonly string[]): { storeUrl?: string; pixelId?: string } | null {
  if (pattern.length !== segments.length) return null;
  const params: { storeUrl?: string; pixelId?: string } = {};
  for (let i = 0; i < pattern.length; i++) {
    const expected = pattern[i] as string;
    const actual = segments[i] as string;
    if (expected === ":storeUrl") params.storeUrl = actual;
    else if (expected === ":pixelId") params.pixelId = actual;
    else if (expected !== actual) return null;
  }
  return params;
}

/** `segments` are the decoded path segments after `/v1`. */
export function matchRoute(method: string, segments: readonly string[]): RouteMatch {
  const allow: string[] = [];
  for (const route of ROUTES) {
    const params = matchPattern(route.pattern, segments);
    if (!params) continue;
    if (route.method === method) return { kind: "found", route, params };
    allow.push(route.method);
  }
  return allow.length > 0 ? { kind: "wrong-method", allow } : { kind: "not-found" };
}
