import "server-only";
import type { Db } from "@/server/db/database";
import { acrossStores, sessionDb } from "@/server/db/reach";

/** The ring's rows: the keys (by fingerprint) a session holds; a cookie's key counts only while its row is active (RLS per session). */
export interface SessionKeyRow {
  keyFingerprint: string;
  label: string;
  storeUrls: string[];
  addedAt: Date;
  droppedAt: Date | null;
  droppedReason: string | null;
}

/** Why a key left a ring: its holder removed it, or the upstream refused it (401). */
type DropReason = "removed" | "key_expired" | "key_revoked" | "key_invalid";

const COLUMNS = `key_fingerprint as "keyFingerprint", label, store_urls as "storeUrls", added_at as "addedAt",
  dropped_at as "droppedAt", dropped_reason as "droppedReason"`;

/** Changes a ring from the cookie sealed with `version`, moving the version on so older cookies stop counting; null if another tab won. */
export async function changeRing(db: Db, sessionId: string, version: number, change: (tx: Db) => Promise<void>): Promise<number | null> {
  return sessionDb(db, sessionId).transaction(async (tx) => {
    const [row] = await tx.query<{ version: number }>(
      `update sessions set ring_version = ring_version + 1 where id = $1 and ring_version = $2 and revoked_at is null
       returning ring_version as version`,
      [sessionId, version],
    );
    if (!row) return null;
    await change(tx);
    return row.version;
  });
}

/** Adds a key to a session's ring (or brings back one removed earlier); inside `changeRing`. */
export async function addSessionKey(
  db: Db,
  sessionId: string,
  key: { keyFingerprint: string; label: string; storeUrls: string[] },
  now: Date,
): Promise<void> {
  await db.query(
    `insert into session_keys (session_id, key_fingerprint, label, store_urls, added_at) values ($1, $2, $3, $4, $5)
     on conflict (session_id, key_fingerprint) do update
       set label = excluded.label, store_urls = excluded.store_urls, added_at = excluded.added_at,
           dropped_at = null, dropped_reason = null, noticed_at = null`,
    [sessionId, key.keyFingerprint, key.label, key.storeUrls, now],
  );
}

/** Every key a session has held, kept or dropped, oldest first. */
export async function sessionKeyRows(db: Db, sessionId: string): Promise<SessionKeyRow[]> {
  return sessionDb(db, sessionId).query<SessionKeyRow>(
    `select ${COLUMNS} from session_keys where session_id = $1 order by added_at, key_fingerprint`,
    [sessionId],
  );
}

/** The holder removes one key from their ring; inside `changeRing`. */
export async function removeSessionKey(db: Db, sessionId: string, fingerprint: string, now: Date): Promise<void> {
  await db.query(
    `update session_keys set dropped_at = $3, dropped_reason = 'removed', noticed_at = $3
     where session_id = $1 and key_fingerprint = $2 and dropped_at is null`,
    [sessionId, fingerprint, now],
  );
}

/** A refused key leaves every ring holding it; a session left keyless ends with that reason. Returns the sessions that ended. */
export async function dropKeyEverywhere(db: Db, fingerprint: string, reason: DropReason, now: Date): Promise<string[]> {
  return acrossStores(db, "a key refused upstream leaves every ring holding it", async (tx) => {
    const dropped = await tx.query<{ sessionId: string }>(
      `update session_keys set dropped_at = $3, dropped_reason = $2
       where key_fingerprint = $1 and dropped_at is null returning session_id as "sessionId"`,
      [fingerprint, reason, now],
    );
    const ended = await tx.query<{ id: string }>(
      `update sessions set revoked_at = $3, revoked_reason = $2
       where revoked_at is null and id = any($1::text[])
         and not exists (select 1 from session_keys k where k.session_id = sessions.id and k.dropped_at is null)
       returning id`,
      [[...new Set(dropped.map((row) => row.sessionId))], reason, now],
    );
    return ended.map((row) => row.id);
  });
}

/** Keys the upstream refused since the holder last looked: each is reported once (a notice on the next page). */
export async function takeDropNotices(db: Db, sessionId: string, now: Date): Promise<SessionKeyRow[]> {
  return sessionDb(db, sessionId).query<SessionKeyRow>(
    `update session_keys set noticed_at = $2
     where session_id = $1 and dropped_at is not null and noticed_at is null returning ${COLUMNS}`,
    [sessionId, now],
  );
}
