import "server-only";
import { settings } from "@/server/config/settings";
import { database } from "@/server/db/database";
import { adoptLegacyRows, isLegacyFingerprint, keyFingerprint, legacyFingerprints } from "@/server/auth/key-identity";
import { getSession, sessionState, touchIntervalSeconds, touchSession, type SessionRow } from "@/server/auth/sessions";
import { sessionKeyRows } from "@/server/auth/session-keys";
import { activeRing, type SessionKey } from "./ring";
import { parseEndedReason, type EndedReason } from "./ended";
import { unsealSession, type SessionData } from "./cookie";

/** A signed-in request's session: the cookie's contents, checked against its row. */
export interface ActiveSession {
  id: string;
  data: SessionData;
  /** The keys of the ring that still count, each with its own fingerprint; none of them is first. */
  keys: SessionKey[];
}

/** The key's database identity; rows written under an older (secret-keyed) fingerprint move to it the first time the key is seen. */
export async function fingerprintOf(apiKey: string): Promise<string> {
  const db = await database();
  const fingerprint = await keyFingerprint(db, apiKey);
  await adoptLegacyRows(db, fingerprint, legacyFingerprints(apiKey, settings().session.secrets));
  return fingerprint;
}

/** Why a row no longer counts, in the words the sign-in page knows. */
function endedReason(row: SessionRow, state: "revoked" | "expired" | "idle"): EndedReason {
  if (state === "expired") return "session_expired";
  if (state === "idle") return "session_idle";
  return parseEndedReason(row.revokedReason ?? undefined) ?? "session_revoked";
}

/** The session a cookie names, if its row still counts (not revoked, within the limits as set now); `ended` says why it no longer does. */
export async function resolveSession(
  sealed: string | undefined,
): Promise<{ session?: ActiveSession; ended?: EndedReason | "ring_changed" }> {
  const data = await unsealSession(sealed);
  if (!data) return {};
  const db = await database();
  // Both reads at once, on two connections: the keys of an ended session are read for nothing.
  const [row, keyRowsRead] = await Promise.all([getSession(db, data.sessionId), sessionKeyRows(db, data.sessionId)]);
  if (!row) return { ended: "session_revoked" };
  const now = new Date();
  const { ttlSeconds, idleSeconds } = settings().session;
  const state = sessionState(row, now, { ttlSeconds, idleSeconds });
  if (state !== "active") return { ended: endedReason(row, state) };
  // A copy of the cookie sealed before the ring last changed no longer counts. The session lives on: a request that left before the change
  // answers after it, and its answer must not end the session for the browser, which already holds the newer cookie.
  if ((data.ringVersion ?? 0) !== row.ringVersion) return { ended: "ring_changed" };
  const interval = touchIntervalSeconds(idleSeconds);
  // One read per request: the write happens only when "last seen" is old enough.
  if (now.getTime() - row.lastSeenAt.getTime() >= interval * 1000) await touchSession(db, row.id, now, interval);
  const legacy = isLegacyFingerprint(row.keyFingerprint);
  // Each key of the cookie adopts the rows written under its own older fingerprints.
  if (legacy) for (const apiKey of [data.apiKey, ...(data.ring ?? []).map((key) => key.apiKey)]) await fingerprintOf(apiKey);
  // Adopting the keys' identities moved their rows: the rows read above named the old ones.
  const ring = await activeRing(db, data, legacy ? await sessionKeyRows(db, row.id) : keyRowsRead);
  // Every key removed or refused: nothing is left to work with.
  if (ring.keys.length === 0) return { ended: "session_revoked" };
  return { session: { id: row.id, data: ring.data, keys: ring.keys } };
}
