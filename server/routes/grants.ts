import "server-only";
import { settings } from "@/server/config/settings";
import { database } from "@/server/db/database";
import { createGrant, listGrants, noticesOfKey, revokeGrant, type Grant } from "@/server/grants/store";
import { ACTION_BODY_LIMIT, route, type RawParams } from "@/server/http/pipeline";
import { DashboardError, jsonResponse } from "@/server/http/responses";
import { newGrantSchema, type GrantItem } from "@/shared/schemas/grant";

const COLLECTION = "/api/stores/[storeUrl]/grants";

const iso = (date: Date | null) => (date ? date.toISOString() : null);

function item(grant: Grant, keyFingerprint: string): GrantItem {
  return {
    id: grant.id,
    storeUrl: grant.storeUrl,
    ownerEmail: grant.ownerEmail,
    mine: grant.keyFingerprint === keyFingerprint,
    createdAt: grant.createdAt.toISOString(),
    lastUsedAt: iso(grant.lastUsedAt),
    expiresAt: grant.expiresAt.toISOString(),
    endedAt: iso(grant.endedAt),
    endedReason: grant.endedReason,
    dependents: grant.dependents,
  };
}

function grantPath(raw: RawParams): { storeUrl: string; id: string } {
  const { storeUrl, id } = raw;
  if (typeof storeUrl !== "string" || typeof id !== "string" || !/^grant_[0-9a-f-]{36}$/.test(id)) {
    throw new DashboardError(404, "not_found", "No such grant.");
  }
  return { storeUrl, id };
}

/** GET /api/stores/{storeUrl}/grants: the store's grants, and what the signed-in key's owner was told about theirs. */
export const listStoreGrants = route({ methods: ["GET"], path: COLLECTION, scope: "store" }, async ({ scope, key, requestId }) => {
  const db = await database();
  // The store's own key of the ring owns its grants.
  const [grants, notices] = await Promise.all([listGrants(db, scope.organizationId!, scope.store!.url), noticesOfKey(db, key.fingerprint)]);
  return jsonResponse(
    {
      enabled: settings().delegation.enabled,
      grants: grants.map((grant) => item(grant, key.fingerprint)),
      notices: notices
        .filter((notice) => notice.storeUrl === scope.store!.url)
        .map((notice) => ({
          id: notice.id,
          storeUrl: notice.storeUrl,
          message: notice.message,
          createdAt: notice.createdAt.toISOString(),
        })),
    },
    { requestId },
  );
});

/** POST /api/stores/{storeUrl}/grants: the signed-in key's owner consents to unattended reads of this store. */
export const grantStore = route(
  { methods: ["POST"], path: COLLECTION, scope: "store", body: { schema: newGrantSchema, maxBytes: ACTION_BODY_LIMIT } },
  async ({ scope, session, key, requestId }) => {
    const { enabled, ttlDays } = settings().delegation;
    if (!enabled) {
      throw new DashboardError(409, "delegation_off");
    }
    const grant = await createGrant(
      await database(),
      {
        organizationId: scope.organizationId!,
        storeUrl: scope.store!.url,
        // Sealed with the key of this store, never another key of the ring.
        keyFingerprint: key.fingerprint,
        ownerEmail: session.data.user.email,
        apiKey: key.apiKey,
        ttlDays,
      },
      new Date(),
    );
    return jsonResponse(item(grant, key.fingerprint), { status: 201, requestId });
  },
);

/** DELETE /api/stores/{storeUrl}/grants/{id}: revoked by its owner; every digest reading through it stops. */
export const revokeStoreGrant = route(
  { methods: ["DELETE"], path: `${COLLECTION}/[id]`, scope: "store", params: grantPath },
  async ({ scope, key, params, requestId }) => {
    const result = await revokeGrant(
      await database(),
      { organizationId: scope.organizationId!, storeUrl: scope.store!.url, keyFingerprint: key.fingerprint },
      params.id,
      new Date(),
    );
    if (result === "missing") throw new DashboardError(404, "not_found", "No such grant.");
    if (result === "not_owner") throw new DashboardError(403, "forbidden", "Only the person who granted access can revoke it.");
    return jsonResponse({ revoked: true }, { requestId });
  },
);
