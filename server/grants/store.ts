import "server-only";
import { randomUUID } from "node:crypto";
import type { Db } from "@/server/db/database";
import { sealApiKey, type SealedKey } from "./envelope";
import { daysAfter } from "@/shared/days";

/** A consent to read one store's analytics on its owner's behalf (migration 0006). */
export interface Grant {
  id: string;
  organizationId: string;
  storeUrl: string;
  keyFingerprint: string;
  ownerEmail: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date;
  endedAt: Date | null;
  endedReason: GrantEndReason | null;
  /** Digest schedules and alert rules (its owner's, on its store) that read through it. */
  dependents: number;
}

export type GrantEndReason = "revoked" | "upstream_refused" | "expired" | "undecryptable";

const COLUMNS = `g.id, g.organization_id as "organizationId", g.store_url as "storeUrl", g.key_fingerprint as "keyFingerprint",
  g.owner_email as "ownerEmail", g.created_at as "createdAt", g.last_used_at as "lastUsedAt", g.expires_at as "expiresAt",
  g.ended_at as "endedAt", g.ended_reason as "endedReason",
  (select count(*)::int from digest_schedules d where d.grant_id = g.id)
    + (select count(*)::int from alert_rules r where r.organization_id = g.organization_id and r.store_url = g.store_url
       and r.created_by_email = g.owner_email and r.deleted_at is null) as dependents`;

/** Grants the session's key to the store for its owner, renewing the owner's active grant of that key and store instead of doubling it. */
export async function createGrant(
  db: Db,
  input: { organizationId: string; storeUrl: string; keyFingerprint: string; ownerEmail: string; apiKey: string; ttlDays: number },
  now: Date,
): Promise<Grant> {
  const expiresAt = daysAfter(now, input.ttlDays);
  const scope = [input.organizationId, input.storeUrl, input.keyFingerprint, input.ownerEmail];
  const ofOwner =
    "organization_id = $1 and store_url = $2 and key_fingerprint = $3 and lower(owner_email) = lower($4) and ended_at is null";
  return db.transaction(async (tx) => {
    // One past its expiry that the purge has not ended yet makes way.
    await tx.query(
      `update grants set ended_at = $5, ended_reason = 'expired', wrapped_data_key = ''::bytea, sealed_api_key = ''::bytea
       where ${ofOwner} and expires_at <= $5`,
      [...scope, now],
    );
    const [existing] = await tx.query<{ id: string }>(`select id from grants where ${ofOwner} for update`, scope);
    const id = existing?.id ?? `grant_${randomUUID()}`;
    const sealed = sealApiKey({ grantId: id, ...input }, input.apiKey);
    if (existing) {
      await tx.query(
        `update grants set master_key_id = $2, wrapped_data_key = $3, sealed_api_key = $4, expires_at = $5, seal_version = $6 where id = $1`,
        [id, sealed.masterKeyId, sealed.wrappedDataKey, sealed.sealedApiKey, expiresAt, sealed.sealVersion],
      );
    } else {
      await tx.query(
        `insert into grants (id, organization_id, store_url, key_fingerprint, owner_email, master_key_id, wrapped_data_key, sealed_api_key, created_at, expires_at,
           seal_version)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [
          id,
          input.organizationId,
          input.storeUrl,
          input.keyFingerprint,
          input.ownerEmail,
          sealed.masterKeyId,
          sealed.wrappedDataKey,
          sealed.sealedApiKey,
          now,
          expiresAt,
          sealed.sealVersion,
        ],
      );
    }
    return (await grantById(tx, id))!;
  });
}

async function grantById(db: Db, id: string): Promise<Grant | null> {
  const [row] = await db.query<Grant>(`select ${COLUMNS} from grants g where g.id = $1`, [id]);
  return row ?? null;
}

/** The sealed key of a grant still in force at `now`, or why it is not. */
export async function sealedKeyOf(
  db: Db,
  id: string,
  now: Date,
): Promise<{ grant: Grant; sealed: SealedKey } | { ended: GrantEndReason | "missing" }> {
  const [row] = await db.query<Grant & SealedKey>(
    `select ${COLUMNS}, g.master_key_id as "masterKeyId", g.wrapped_data_key as "wrappedDataKey", g.sealed_api_key as "sealedApiKey",
       g.seal_version as "sealVersion"
     from grants g where g.id = $1`,
    [id],
  );
  if (!row) return { ended: "missing" };
  if (row.endedReason) return { ended: row.endedReason };
  if (row.expiresAt <= now) {
    await endGrant(db, id, "expired", now);
    return { ended: "expired" };
  }
  const { masterKeyId, wrappedDataKey, sealedApiKey, sealVersion, ...grant } = row;
  return {
    grant,
    sealed: {
      masterKeyId,
      wrappedDataKey: Buffer.from(wrappedDataKey),
      sealedApiKey: Buffer.from(sealedApiKey),
      sealVersion: Number(sealVersion),
    },
  };
}

/** The grant in force through which `ownerEmail`'s background work reads the store (their alert rules), if any. */
export async function grantInForce(
  db: Db,
  scope: { organizationId: string; storeUrl: string; ownerEmail: string },
  now: Date,
): Promise<string | null> {
  const [row] = await db.query<{ id: string }>(
    `select id from grants where organization_id = $1 and store_url = $2 and owner_email = $3 and ended_at is null and expires_at > $4
     order by created_at desc limit 1`,
    [scope.organizationId, scope.storeUrl, scope.ownerEmail, now],
  );
  return row?.id ?? null;
}

/** The store's grants, in force first, newest first. */
export function listGrants(db: Db, organizationId: string, storeUrl: string): Promise<Grant[]> {
  return db.query<Grant>(
    `select ${COLUMNS} from grants g where g.organization_id = $1 and g.store_url = $2
     order by (g.ended_at is null) desc, g.created_at desc limit 100`,
    [organizationId, storeUrl],
  );
}

/** Ends a grant: its sealed key is erased, the row stays to say when and why. False when it had already ended. */
export async function endGrant(db: Db, id: string, reason: GrantEndReason, now: Date): Promise<boolean> {
  const rows = await db.query(
    `update grants set ended_at = $3, ended_reason = $2, wrapped_data_key = ''::bytea, sealed_api_key = ''::bytea
     where id = $1 and ended_at is null returning id`,
    [id, reason, now],
  );
  return rows.length > 0;
}

/** Purge: grants past expiry end, and every ended grant's sealed key is erased. Returns how many grants it ended. */
export async function purgeGrantKeys(db: Db, now: Date): Promise<number> {
  const ended = await db.query(
    `update grants set ended_at = $1, ended_reason = 'expired', wrapped_data_key = ''::bytea, sealed_api_key = ''::bytea
     where ended_at is null and expires_at <= $1 returning id`,
    [now],
  );
  await db.query(
    "update grants set wrapped_data_key = ''::bytea, sealed_api_key = ''::bytea where ended_at is not null and length(sealed_api_key) > 0",
  );
  return ended.length;
}

/** Revocation by its owner (the same key that granted it). */
export async function revokeGrant(
  db: Db,
  scope: { organizationId: string; storeUrl: string; keyFingerprint: string },
  id: string,
  now: Date,
) {
  const [row] = await db.query<{ keyFingerprint: string }>(
    `select key_fingerprint as "keyFingerprint" from grants where id = $1 and organization_id = $2 and store_url = $3`,
    [id, scope.organizationId, scope.storeUrl],
  );
  if (!row) return "missing" as const;
  if (row.keyFingerprint !== scope.keyFingerprint) return "not_owner" as const;
  await endGrant(db, id, "revoked", now);
  return "revoked" as const;
}

export async function touchGrant(db: Db, id: string, now: Date, resealed?: SealedKey): Promise<void> {
  if (resealed) {
    await db.query(
      `update grants set last_used_at = $2, master_key_id = $3, wrapped_data_key = $4, sealed_api_key = $5, seal_version = $6
       where id = $1 and ended_at is null`,
      [id, now, resealed.masterKeyId, resealed.wrappedDataKey, resealed.sealedApiKey, resealed.sealVersion],
    );
  } else await db.query("update grants set last_used_at = $2 where id = $1", [id, now]);
}

/** Signing in with a key renews the lifetime of every grant it made that is still in force. */
export async function renewGrantsOfKey(db: Db, keyFingerprint: string, ttlDays: number, now: Date): Promise<void> {
  await db.query("update grants set expires_at = $2 where key_fingerprint = $1 and ended_at is null and expires_at > $3", [
    keyFingerprint,
    daysAfter(now, ttlDays),
    now,
  ]);
}

export async function addGrantNotice(db: Db, grant: Grant, kind: string, message: string): Promise<void> {
  await db.query(
    `insert into grant_notices (grant_id, organization_id, store_url, owner_email, key_fingerprint, kind, message) values ($1, $2, $3, $4, $5, $6, $7)`,
    [grant.id, grant.organizationId, grant.storeUrl, grant.ownerEmail, grant.keyFingerprint, kind, message],
  );
}

interface GrantNotice {
  id: string;
  grantId: string;
  storeUrl: string;
  kind: string;
  message: string;
  createdAt: Date;
}

/** What the key's owner has been told about its grants, newest first. */
export function noticesOfKey(db: Db, keyFingerprint: string): Promise<GrantNotice[]> {
  return db.query<GrantNotice>(
    `select id::text as id, grant_id as "grantId", store_url as "storeUrl", kind, message, created_at as "createdAt"
     from grant_notices where key_fingerprint = $1 order by created_at desc limit 50`,
    [keyFingerprint],
  );
}
