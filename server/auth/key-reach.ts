import "server-only";
import { LRUCache } from "lru-cache";
import { contextSchema, type Context } from "@/shared/schemas/context";
import { settings } from "@/server/config/settings";
import { processSingleton } from "@/server/runtime/singleton";
import { UpstreamFailure, UpstreamHttpError, type UpstreamClient } from "@/server/upstream/client";

/** What a session's key reaches (its GET /context stores), re-read after KEY_RECHECK_SECONDS; an upstream 401 or 403 drops it at once. */
export interface ReachStore {
  id: string;
  url: string;
  type: string;
  currency: string;
  /** The store's name, when the upstream gives one (the contract does not: then pages show its URL). */
  name?: string;
  organizationId: string;
  organizationName: string;
}

/** A reach is a list of stores: a key reaches one; a session holding several keys reaches each of theirs. */
export interface KeyReach {
  stores: ReachStore[];
  /** When the upstream last confirmed the key (epoch ms). */
  confirmedAt: number;
}

/** How long a session keeps its last known reach while the upstream is down, so the dashboard's own pages stay readable. */
const STALE_REACH_LIMIT_MS = 15 * 60_000;

/** After a failed check, requests use the stale reach at once for this long before the next try. */
const RETRY_CHECK_MS = 10_000;

interface Entry {
  reach?: KeyReach;
  pending?: Promise<KeyReach>;
  /** Set while the upstream is unreachable: no new check before this time (epoch ms). */
  retryAt?: number;
}

const entries = processSingleton("keyReach", () => new LRUCache<string, Entry>({ max: 20_000 }));

function reachOf(context: Context, now: number): KeyReach {
  return {
    confirmedAt: now,
    // A store is never '' (the rows no store owns are kept there): a store without a URL is no store of the reach.
    stores: context.organizations.flatMap((organization) =>
      organization.stores
        .filter((store) => store.url !== "")
        .map((store) => ({
          id: store.id,
          url: store.url,
          type: store.type,
          currency: store.currency,
          ...(typeof store.name === "string" && store.name ? { name: store.name } : {}),
          organizationId: organization.id,
          organizationName: organization.name,
        })),
    ),
  };
}

/** Sign-in has just read the key's whole context: the session starts with it. */
export function rememberReach(sessionId: string, context: Context, now = Date.now()): void {
  entries.set(sessionId, { reach: reachOf(context, now) });
}

/** The upstream refused something for this session's key: read its reach again on the next request. */
export function forgetReach(sessionId: string): void {
  entries.delete(sessionId);
}

const unavailable = (error: unknown) =>
  error instanceof UpstreamFailure || (error instanceof UpstreamHttpError && (error.status >= 500 || error.status === 429));

/** The session's reach, re-confirmed within KEY_RECHECK_SECONDS (one shared read); 401/403 throw, an outage falls back. */
export async function keyReach(sessionId: string, upstream: UpstreamClient, now = Date.now()): Promise<KeyReach> {
  const entry = entries.get(sessionId) ?? {};
  const fresh = entry.reach && now - entry.reach.confirmedAt < settings().session.keyRecheckSeconds * 1000;
  if (fresh || (entry.reach && entry.retryAt !== undefined && now < entry.retryAt)) return entry.reach!;
  if (entry.pending) return entry.pending;
  const pending = upstream
    .with({ organizationId: undefined })
    .json("context", contextSchema, { signal: null })
    .then(
      ({ data }) => {
        const reach = reachOf(data, Date.now());
        entries.set(sessionId, { reach });
        return reach;
      },
      (error: unknown) => {
        const stale = entry.reach && now - entry.reach.confirmedAt < STALE_REACH_LIMIT_MS ? entry.reach : undefined;
        if (stale && unavailable(error)) {
          entries.set(sessionId, { reach: stale, retryAt: Date.now() + RETRY_CHECK_MS });
          return stale;
        }
        entries.delete(sessionId);
        throw error;
      },
    );
  entries.set(sessionId, { ...entry, pending });
  return pending;
}
