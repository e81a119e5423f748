import "server-only";
import type { Db } from "@/server/db/database";
import { keyFingerprint, keyLabel } from "@/server/auth/key-identity";
import { dropKeyEverywhere, type SessionKeyRow } from "@/server/auth/session-keys";
import { database } from "@/server/db/database";
import { unauthorizedCode } from "@/server/upstream/errors";
import { UpstreamHttpError, upstreamClient, type UpstreamClient } from "@/server/upstream/client";
import type { Context } from "@/shared/schemas/context";
import { forgetReach, keyReach, rememberReach, type KeyReach } from "./key-reach";
import { summarize, type RingKeyData, type SessionData, type SessionSummary } from "./cookie";

/** The key ring: a session holds several stores' keys sealed in the cookie; a key counts only while its row (session-keys.ts) is active. */
export interface SessionKey extends RingKeyData {
  fingerprint: string;
  /** Short and not secret: a few characters of the fingerprint. */
  label: string;
}

/** The keys a cookie holds, in the order they were added. */
function cookieKeys(data: SessionData): RingKeyData[] {
  const { apiKey, organizationId, organization, stores } = data;
  return [{ apiKey, organizationId, organization, stores }, ...(data.ring ?? [])];
}

/** The session's data with `keys` as its ring (the first's organization is the one pages open by default). */
export function withKeys(data: SessionData, keys: readonly RingKeyData[]): SessionData {
  const [first, ...rest] = keys;
  if (!first) return { ...data, ring: [] };
  const { apiKey, organizationId, organization, stores } = first;
  // Each key's own fields only: the cookie's schema is strict.
  const ring = rest.map(({ apiKey, organizationId, organization, stores }) => ({ apiKey, organizationId, organization, stores }));
  return { ...data, apiKey, organizationId, organization, stores, ring };
}

/** The cookie's keys that still count (those whose row is active), each known by its own fingerprint. */
export async function activeRing(
  db: Db,
  data: SessionData,
  rows: readonly SessionKeyRow[],
): Promise<{ keys: SessionKey[]; data: SessionData }> {
  const active = new Set(rows.filter((row) => row.droppedAt === null).map((row) => row.keyFingerprint));
  const keys: SessionKey[] = [];
  for (const key of cookieKeys(data)) {
    const fingerprint = await keyFingerprint(db, key.apiKey);
    if (active.has(fingerprint) && !keys.some((other) => other.fingerprint === fingerprint))
      keys.push({ ...key, fingerprint, label: keyLabel(fingerprint) });
  }
  return { keys, data: withKeys(data, keys) };
}

interface RingSession {
  id: string;
  data: SessionData;
  keys: SessionKey[];
}

/** The summary the browser may see, with the ring's keys by label and store. */
export function summarizeSession(session: RingSession): SessionSummary {
  return summarize(
    session.data,
    session.keys.map(({ label, organization, stores }) => ({ label, organization, storeUrls: stores.map((store) => store.url) })),
  );
}

const reachId = (sessionId: string, key: Pick<SessionKey, "fingerprint">) => `${sessionId}:${key.fingerprint}`;

/** The upstream as one key of the ring: a 401 or 403 makes its reach be read again. */
export function keyClient(session: RingSession, key: SessionKey, requestId: string, signal?: AbortSignal): UpstreamClient {
  return upstreamClient({
    apiKey: key.apiKey,
    requestId,
    signal,
    onAnswer: (status) => {
      if (status === 401 || status === 403) forgetReach(reachId(session.id, key));
    },
  });
}

/** Which key of the ring serves what a request names. */
interface RingReach {
  /** The union of what the keys reach. */
  reach: KeyReach;
  /** The key that reaches this store, if any: a store's calls use its own key, never another. */
  keyOfStore(storeUrl: string): SessionKey | undefined;
  /** A key of this organization (the first), or else the ring's first key. */
  keyOfOrganization(organizationId: string | null | undefined): SessionKey;
}

/** The union of the keys' reaches: each store once (the first key that reaches it serves it). */
function merge(reaches: readonly KeyReach[]): KeyReach {
  const stores: KeyReach["stores"] = [];
  for (const reach of reaches) for (const store of reach.stores) if (!stores.some((other) => other.url === store.url)) stores.push(store);
  return { stores, confirmedAt: Math.min(...reaches.map((reach) => reach.confirmedAt)) };
}

type KeyRefusalCode = "key_expired" | "key_revoked" | "key_invalid";

const refusedKey = (error: unknown): error is UpstreamHttpError => error instanceof UpstreamHttpError && error.status === 401;

/** The upstream refused a key (401): it leaves every ring holding it. True when `sessionId` still has keys. */
export async function dropRefusedKey(sessionId: string, key: SessionKey, refusal: UpstreamHttpError | KeyRefusalCode): Promise<boolean> {
  const reason = typeof refusal === "string" ? refusal : unauthorizedCode(refusal.body.error);
  const ended = await dropKeyEverywhere(await database(), key.fingerprint, reason, new Date());
  return !ended.includes(sessionId);
}

/** Sign-in and adding a key have just read the key's whole context: its reach starts with it. */
export function rememberKeyReach(sessionId: string, fingerprint: string, context: Context): void {
  rememberReach(`${sessionId}:${fingerprint}`, context);
}

/** What the ring's keys reach together, each read on its own; a key refused with 401 leaves, only the last one's refusal throws. */
export async function ringReach(session: RingSession, requestId: string, signal?: AbortSignal): Promise<RingReach> {
  const results = await Promise.allSettled(
    session.keys.map((key) => keyReach(reachId(session.id, key), keyClient(session, key, requestId, signal))),
  );
  const kept: { key: SessionKey; reach: KeyReach }[] = [];
  let refusal: unknown;
  for (const [index, result] of results.entries()) {
    const key = session.keys[index]!;
    if (result.status === "fulfilled") kept.push({ key, reach: result.value });
    else if (refusedKey(result.reason)) {
      await dropRefusedKey(session.id, key, result.reason);
      refusal ??= result.reason;
    } else throw result.reason;
  }
  if (kept.length === 0) throw refusal;
  session.keys = kept.map(({ key }) => key);
  return {
    reach: merge(kept.map(({ reach }) => reach)),
    keyOfStore: (storeUrl) => kept.find(({ reach }) => reach.stores.some((store) => store.url === storeUrl))?.key,
    keyOfOrganization: (organizationId) =>
      kept.find(({ reach }) => reach.stores.some((store) => store.organizationId === organizationId))?.key ?? kept[0]!.key,
  };
}
