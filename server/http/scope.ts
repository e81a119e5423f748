import "server-only";
import { identifierSchema } from "@/shared/schemas/common";
import { DashboardError } from "./responses";
import type { ActiveSession } from "@/server/auth/current-session";
import type { KeyReach, ReachStore } from "@/server/auth/key-reach";

/**
 * What a route works on, declared in its spec:
 * - `none`: no store's data (health, sign-in, one's own sessions); `reason` says why;
 * - `store`: one store of the reach, named in the path;
 * - `reach`: every store the keys reach (Activity, inbox, Runs, Outbox), narrowed to one organization when named.
 * An organization id alone never selects a store's data.
 */
export type Scope = "none" | "store" | "reach";

/** The scope a handler works in, verified against what the session's keys reach. */
export interface VerifiedScope {
  /** The organization the upstream is asked in: the store's, the named one, or the session's; never a filter of our own data. */
  organizationId: string | null;
  organizationName?: string;
  /** Set on `store` routes. */
  store?: ReachStore;
  /** The stores the handler may read and write: the path's store, the reach (or its part in the named organization), none. */
  stores: readonly ReachStore[];
  /** Whether the request named the organization itself (x-service-organization-id or organizationId). */
  named: boolean;
}

/** The organization a request names, if any: the header, or the query's organizationId; both must agree. */
export function namedOrganization(request: Request, url: URL): string | undefined {
  const header = request.headers.get("x-service-organization-id") ?? undefined;
  const query = url.searchParams.getAll("organizationId");
  if (query.length > 1) throw new DashboardError(400, "bad_request", 'Query parameter "organizationId" is given more than once.');
  for (const [where, value] of [
    ["The x-service-organization-id header", header],
    ["The organizationId query parameter", query[0]],
  ] as const) {
    if (value !== undefined && !identifierSchema.safeParse(value).success) {
      throw new DashboardError(400, "bad_request", `${where} is not a valid organization ID.`);
    }
  }
  if (header !== undefined && query[0] !== undefined && header !== query[0]) {
    throw new DashboardError(
      400,
      "bad_request",
      "The x-service-organization-id header and the organizationId query name different organizations.",
    );
  }
  return header ?? query[0];
}

const outsideOrganization = (id: string) => new DashboardError(403, "forbidden", `This key cannot access organization ${id}.`);
const outsideStore = (url: string) =>
  new DashboardError(404, "not_found", `Store ${url} was not found among the stores this key can reach.`);

/** The name of an organization of the reach, or undefined when no store of the reach is in it. */
function organizationName(reach: KeyReach, id: string): string | undefined {
  return reach.stores.find((store) => store.organizationId === id)?.organizationName;
}

/** Verifies a route's scope against the reach (contract part 5): an organization outside it is a 403, a store outside it a 404. */
export function verifyScope(
  scope: Scope,
  reach: KeyReach,
  session: ActiveSession,
  named: string | undefined,
  storeUrl: string | undefined,
): VerifiedScope {
  const isNamed = named !== undefined;
  if (isNamed && organizationName(reach, named) === undefined) throw outsideOrganization(named);
  if (scope === "store") {
    if (!storeUrl) throw new DashboardError(400, "bad_request", "The store URL in the path is missing.");
    const store = reach.stores.find((candidate) => candidate.url === storeUrl && (!isNamed || candidate.organizationId === named));
    if (!store) throw outsideStore(storeUrl);
    return { organizationId: store.organizationId, organizationName: store.organizationName, store, stores: [store], named: isNamed };
  }
  const id = named ?? session.data.organizationId ?? null;
  const name = id ? organizationName(reach, id) : undefined;
  if (scope === "none") return { organizationId: id, organizationName: name, stores: [], named: isNamed };
  const stores = isNamed ? reach.stores.filter((store) => store.organizationId === named) : reach.stores;
  return { organizationId: id, organizationName: name, stores, named: isNamed };
}

/** The stores a reach-wide listing reads: all, or the one a `?store=` filter names (404 if outside the scope). */
export function storesToRead(scope: VerifiedScope, filter?: string): string[] {
  if (filter === undefined) return scope.stores.map((store) => store.url);
  if (!scope.stores.some((store) => store.url === filter)) throw outsideStore(filter);
  return [filter];
}

/** The scope's stores as the organization-wide pages name them. */
export function storeItems(scope: VerifiedScope): { url: string; name: string }[] {
  return scope.stores.map((store) => ({ url: store.url, name: store.name ?? store.url }));
}
