import "server-only";
import { sessionIdleSeconds, sessionTtlSeconds } from "@/lib/server/config";
import { database } from "@/lib/store/database";
import {
  getSession,
  keyFingerprint,
  revokeAllOfKey,
  sessionState,
  touchSession,
  TOUCH_INTERVAL_SECONDS,
  type SessionRow,
} from "@/lib/store/sessions";
import { parseEndedReason, type EndedReason } from "./ended";
import { sessionSecrets } from "./secrets";
import { unsealSession, type SessionData } from "./session";

/** A signed-in request's session: the cookie's contents, checked against its row. */
export interface ActiveSession {
  id: string;
  data: SessionData;
  row: SessionRow;
  /** Groups the sessions of one API key; the key itself is never stored. */
  keyFingerprint: string;
}

/** The HMAC of an API key, keyed by the newest session secret. */
export function fingerprintOf(apiKey: string): string {
  return keyFingerprint(apiKey, Object.values(sessionSecrets().sealing)[0]!);
}

/** Why a row no longer counts, in the words the sign-in page knows. */
function endedReason(row: SessionRow, state: "revoked" | "expired" | "idle"): EndedReason {
  if (state === "expired") return "session_expired";
  if (state === "idle") return "session_idle";
  return parseEndedReason(row.revokedReason ?? undefined) ?? "session_revoked";
}

/**
 * The session a sealed cookie names, if its row still counts: not revoked (sign-out, an
 * upstream 401), within the absolute and idle limits as they are set now. Use moves "last
 * seen" at most once a minute. `ended` says why a readable cookie no longer counts.
 */
export async function resolveSession(sealed: string | undefined): Promise<{ session?: ActiveSession; ended?: EndedReason }> {
  const data = await unsealSession(sealed);
  if (!data) return {};
  const db = await database();
  const row = await getSession(db, data.sessionId);
  if (!row) return { ended: "session_revoked" };
  const now = new Date();
  const state = sessionState(row, now, { ttlSeconds: sessionTtlSeconds(), idleSeconds: sessionIdleSeconds() });
  if (state !== "active") return { ended: endedReason(row, state) };
  // One read per request: the write happens only when "last seen" is a minute old.
  if (now.getTime() - row.lastSeenAt.getTime() >= TOUCH_INTERVAL_SECONDS * 1000) await touchSession(db, row.id, now);
  return { session: { id: row.id, data, row, keyFingerprint: row.keyFingerprint } };
}

/** The upstream refused the key: every session of it ends, on every instance. */
export async function endSessionsOfKey(fingerprint: string, reason: EndedReason): Promise<void> {
  await revokeAllOfKey(await database(), fingerprint, reason, new Date());
}
