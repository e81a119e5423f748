import "server-only";
import { identifierSchema } from "@/shared/schemas/common";
import { DashboardError } from "./responses";
import type { ActiveSession } from "@/server/auth/current-session";
import type { KeyReach, ReachStore } from "@/server/auth/key-reach";

/**
 * What a route works on, declared in its spec:
 * - `none`: nothing of one organization (health, sign-in, the key's own sessions);
 * - `organization`: the organization the request names (header or query) or the session's;
 * - `store`: the store of the path, in the organization that owns it.
 */
export type Scope = "none" | "organization" | "store";

/** The scope a handler works in, verified against what the session's key reaches. */
export interface VerifiedScope {
  /** Null only on `none` routes of a session without an organization. */
  organizationId: string | null;
  organizationName?: string;
  /** Set on `store` routes. */
  store?: ReachStore;
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

/**
 * Verifies a route's scope against the key's reach, as the contract's part 5 answers: an
 * organization outside it is a 403, a store outside it (another organization's, another of the
 * same organization, or none at all) a 404. Nothing is read or written before this passes.
 */
export function verifyScope(
  scope: Scope,
  reach: KeyReach,
  session: ActiveSession,
  named: string | undefined,
  storeUrl: string | undefined,
): VerifiedScope {
  const organizationOf = (id: string) => reach.organizations.find((organization) => organization.id === id);
  if (scope === "none") {
    const id = named ?? session.data.organizationId ?? null;
    if (named !== undefined && !organizationOf(named)) throw outsideOrganization(named);
    return { organizationId: id, organizationName: id ? organizationOf(id)?.name : undefined, named: named !== undefined };
  }
  if (scope === "organization") {
    const id = named ?? session.data.organizationId;
    if (!id) throw new DashboardError(403, "forbidden", "This session works in no organization.");
    const organization = organizationOf(id);
    if (!organization) throw outsideOrganization(id);
    return { organizationId: organization.id, organizationName: organization.name, named: named !== undefined };
  }
  if (!storeUrl) throw new DashboardError(400, "bad_request", "The store URL in the path is missing.");
  if (named !== undefined && !organizationOf(named)) throw outsideOrganization(named);
  const candidates = named !== undefined ? [organizationOf(named)!] : reach.organizations;
  for (const organization of candidates) {
    const store = organization.stores.find((candidate) => candidate.url === storeUrl);
    if (store) return { organizationId: organization.id, organizationName: organization.name, store, named: named !== undefined };
  }
  throw outsideStore(storeUrl);
}
