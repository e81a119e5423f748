import "server-only";
import { randomBytes } from "node:crypto";
import type { Db } from "@/server/db/database";
import { acrossStores, sessionDb } from "@/server/db/reach";

/** Server-side sessions (ASVS V7), one row per sign-in, so a sign-out or revocation holds whatever copy of the cookie is replayed. */
export interface SessionRow {
  id: string;
  keyFingerprint: string;
  userEmail: string;
  userName: string;
  organizationId: string | null;
  organizationName: string | null;
  createdAt: Date;
  lastSeenAt: Date;
  userAgent: string;
  clientAddress: string;
  revokedAt: Date | null;
  revokedReason: string | null;
  /** Moves on with each change of the ring: a cookie sealed with an older one no longer counts. */
  ringVersion: number;
}

export type NewSession = Pick<
  SessionRow,
  "keyFingerprint" | "userEmail" | "userName" | "organizationId" | "organizationName" | "userAgent" | "clientAddress"
> & {
  /** The signed-in key's name in the ring (server/auth/session-keys.ts) and its stores. */
  keyLabel?: string;
  storeUrls?: string[];
};

type SessionState = "active" | "expired" | "idle" | "revoked";

/** Seconds a session may live, and may stay unused: the settings of now, not of its sign-in. */
interface SessionLimits {
  ttlSeconds: number;
  idleSeconds: number;
}

/** "last seen" moves at most once a minute, and at least four times per idle limit, so a short limit never ends a session in use. */
export function touchIntervalSeconds(idleSeconds: number): number {
  return Math.max(1, Math.min(60, Math.floor(idleSeconds / 4)));
}

const COLUMNS = `id, key_fingerprint as "keyFingerprint", user_email as "userEmail", user_name as "userName",
  organization_id as "organizationId", organization_name as "organizationName", created_at as "createdAt",
  last_seen_at as "lastSeenAt", user_agent as "userAgent", client_address as "clientAddress",
  revoked_at as "revokedAt", revoked_reason as "revokedReason", ring_version as "ringVersion"`;

export async function createSession(db: Db, session: NewSession, now: Date): Promise<SessionRow> {
  const id = randomBytes(32).toString("base64url");
  const [row] = await sessionDb(db, id).query<SessionRow>(
    // The signed-in key is the ring's first key.
    `with created as (
       insert into sessions (id, key_fingerprint, user_email, user_name, organization_id, organization_name,
         created_at, last_seen_at, user_agent, client_address)
       values ($1, $2, $3, $4, $5, $6, $7, $7, $8, $9) returning *
     ), ring as (
       insert into session_keys (session_id, key_fingerprint, label, store_urls, added_at)
       select id, key_fingerprint, $10, $11::text[], created_at from created
     )
     select ${COLUMNS} from created`,
    [
      id,
      session.keyFingerprint,
      session.userEmail,
      session.userName,
      session.organizationId,
      session.organizationName,
      now,
      session.userAgent.slice(0, 512),
      session.clientAddress.slice(0, 100),
      session.keyLabel ?? "",
      session.storeUrls ?? [],
    ],
  );
  return row!;
}

export async function getSession(db: Db, id: string): Promise<SessionRow | null> {
  const [row] = await db.query<SessionRow>(`select ${COLUMNS} from sessions where id = $1`, [id]);
  return row ?? null;
}

/** Whether a session may still be used now, judged by the current limits (lowering them applies to every session). */
export function sessionState(
  row: Pick<SessionRow, "createdAt" | "lastSeenAt" | "revokedAt">,
  now: Date,
  limits: SessionLimits,
): SessionState {
  if (row.revokedAt) return "revoked";
  if (now.getTime() - row.createdAt.getTime() >= limits.ttlSeconds * 1000) return "expired";
  if (now.getTime() - row.lastSeenAt.getTime() >= limits.idleSeconds * 1000) return "idle";
  return "active";
}

/** Records use of an active session; writes only when "last seen" is `intervalSeconds` old or more. True when it wrote. */
export async function touchSession(db: Db, id: string, now: Date, intervalSeconds: number): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `update sessions set last_seen_at = $2
     where id = $1 and revoked_at is null and last_seen_at <= $2::timestamptz - make_interval(secs => $3)
     returning id`,
    [id, now, intervalSeconds],
  );
  return rows.length > 0;
}

/** The sessions holding a key of `fingerprints` in their ring: a session lists and ends only those of the keys it still holds. */
const HOLDING = `exists (select 1 from session_keys k where k.session_id = sessions.id and k.dropped_at is null and k.key_fingerprint = any($1::text[]))`;

/** Ends one session (sign-out, or one of the sessions a session lists: see `listSessionsHolding`). */
export async function revokeSession(db: Db, id: string, reason: string, now: Date): Promise<boolean> {
  const rows = await db.query(
    "update sessions set revoked_at = $3, revoked_reason = $2 where id = $1 and revoked_at is null returning id",
    [id, reason, now],
  );
  return rows.length > 0;
}

/** "Sign out all other sessions": every session holding one of `fingerprints` but `keepId`. */
export async function revokeOthers(db: Db, fingerprints: readonly string[], keepId: string, now: Date): Promise<number> {
  const rows = await acrossStores(db, "a session ends the other sessions holding its keys", (tx) =>
    tx.query(
      `update sessions set revoked_at = $3, revoked_reason = 'signed_out' where id <> $2 and revoked_at is null and ${HOLDING} returning id`,
      [fingerprints, keepId, now],
    ),
  );
  return rows.length;
}

/** The sessions holding one of `fingerprints`, not yet revoked, newest first, active or not (the caller judges them with `sessionState`). */
export async function listSessionsHolding(db: Db, fingerprints: readonly string[]): Promise<SessionRow[]> {
  return acrossStores(db, "the sessions holding the keys of a session", (tx) =>
    tx.query<SessionRow>(`select ${COLUMNS} from sessions where revoked_at is null and ${HOLDING} order by created_at desc`, [
      fingerprints,
    ]),
  );
}

/** Forgets sessions that ended or expired more than `keepSeconds` ago. */
export async function purgeSessions(db: Db, now: Date, ttlSeconds: number, keepSeconds = 24 * 60 * 60): Promise<number> {
  const rows = await db.query<{ id: string }>(
    `delete from sessions
     where coalesce(revoked_at, created_at + make_interval(secs => $2)) < $1::timestamptz - make_interval(secs => $3)
     returning id`,
    [now, ttlSeconds, keepSeconds],
  );
  return rows.length;
}
