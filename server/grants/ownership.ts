import "server-only";
import type { ActiveSession } from "@/server/auth/require-session";
import { DashboardError } from "@/server/http/responses";
import type { VerifiedScope } from "@/server/http/scope";
import type { UpstreamClient } from "@/server/upstream/client";
import { contextSchema } from "@/shared/schemas/context";

/** Only a rule's or digest's owner (whose grant it uses) changes or deletes it; colleagues see and may copy it; admins may pause it. */
export function samePerson(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/** Roles (as the upstream's /context names them) that may pause what others own. */
const PAUSING_ROLES = new Set(["owner", "admin"]);

/** Whether the signed-in key's user is an owner or admin of the organization, as the upstream says now. */
export async function isOrganizationAdmin(upstream: UpstreamClient, organizationId: string): Promise<boolean> {
  const { data } = await upstream.json("context", contextSchema);
  return data.organizations.some(
    (organization) => organization.id === organizationId && PAUSING_ROLES.has(organization.role.toLowerCase()),
  );
}

/** Who changes what, for the Activity line of a change (server/audit/audit.ts appendChange). */
export function changeBy(scope: VerifiedScope, session: ActiveSession, requestId: string, key: { label: string }) {
  return {
    at: new Date(),
    organizationId: scope.organizationId!,
    storeUrl: scope.store!.url,
    userEmail: session.data.user.email,
    sessionId: session.id,
    requestId,
    keyLabel: key.label,
  };
}

/** The refusal when someone else's rule or digest is changed; `action` as in "delete this digest". */
export function notYours(ownerEmail: string, action: string): DashboardError {
  return new DashboardError(
    403,
    "forbidden",
    `Only ${ownerEmail} may ${action}: it reads and sends through their grant. You may copy it under your own grant.`,
  );
}
