/**
 * Authentication and scope (contract part 5 and 4 "common rules"), in the fixed order:
 * key → organization header → store → permission. Each step throws an HttpError.
 */

import type { IncomingHttpHeaders } from "node:http";
import { HttpError } from "./errors";
import { findOrganization, findStore, type OrganizationFixture, type StoreFixture } from "./fixtures";
import { findKey, type KeyFixture, type Permission } from "./keys";

/** An active key that carries an organization and a store. */
export interface ScopedKey extends KeyFixture {
  organizationId: string;
  storeUrl: string;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** `odd`: the odd store's key is accepted too (odd mode). */
export function authenticate(headers: IncomingHttpHeaders, revokedKeys: ReadonlySet<string> = new Set(), odd = false): ScopedKey {
  const apiKeyHeader = single(headers["x-api-key"]);
  const authorization = single(headers.authorization);
  if (apiKeyHeader !== undefined && authorization !== undefined) {
    throw new HttpError(400, "send exactly one of x-api-key or Authorization, not both");
  }
  let secret: string | undefined;
  if (authorization !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) throw new HttpError(401, 'API key is invalid: the Authorization header must be "Bearer <API key>"');
    secret = match[1];
  } else {
    secret = apiKeyHeader?.trim();
  }
  if (!secret) throw new HttpError(401, "API key is missing: send it in the x-api-key header");
  const key = findKey(secret, odd);
  if (!key) throw new HttpError(401, "API key is invalid");
  if (key.state === "expired") throw new HttpError(401, "API key has expired: create a new key in Settings › MCP");
  if (key.state === "revoked" || revokedKeys.has(secret))
    throw new HttpError(401, "API key has been revoked: create a new key in Settings › MCP");
  if (key.state === "legacy" || key.organizationId === null || key.storeUrl === null) {
    throw new HttpError(
      403,
      "this API key has no store scope (an older settings-generated key); replace it with a store-scoped key created with a store selected",
    );
  }
  return key as ScopedKey;
}

/** The organization header, when sent, must name the key's own organization (on every endpoint). */
export function checkOrganizationHeader(headers: IncomingHttpHeaders, key: ScopedKey, required: boolean): OrganizationFixture {
  const raw = single(headers["x-service-organization-id"]);
  if (raw === undefined) {
    if (required) throw new HttpError(400, "the x-service-organization-id header is required on this endpoint");
  } else {
    const value = raw.trim();
    if (!value) throw new HttpError(400, "the x-service-organization-id header must not be empty");
    // Unknown and foreign organizations get the same answer, so IDs cannot be probed.
    if (value !== key.organizationId) throw new HttpError(403, `this key cannot access organization ${value}`);
  }
  const organization = findOrganization(key.organizationId);
  if (!organization) throw new HttpError(500, "the key's organization is missing");
  return organization;
}

/**
 * A store of another organization is hidden (404, like an unknown one); another store of the
 * key's own organization is visible but not allowed (403). DESIGN.md records this choice.
 */
export function resolveStore(key: ScopedKey, storeUrl: string): StoreFixture {
  if (!storeUrl.trim()) throw new HttpError(400, "the store URL in the path is missing");
  const store = findStore(storeUrl);
  if (!store || store.organizationId !== key.organizationId) throw new HttpError(404, `store ${storeUrl} was not found`);
  if (store.url !== key.storeUrl) {
    throw new HttpError(403, `this key is scoped to store ${key.storeUrl} and cannot access store ${storeUrl}`);
  }
  return store;
}

const PERMISSION_WORDS: Record<Permission, string> = {
  "analytics:read": "read analytics",
  "tracking-connections:delete": "delete tracking connections",
  "campaigns:clone": "clone campaigns",
};

export function requirePermission(key: ScopedKey, permission: Permission): void {
  if (!key.permissions.includes(permission)) {
    throw new HttpError(403, `this key is not allowed to ${PERMISSION_WORDS[permission]} (missing permission ${permission})`);
  }
}
