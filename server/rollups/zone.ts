import "server-only";
import type { UpstreamClient } from "@/server/upstream/client";
import { processSingleton } from "@/server/runtime/singleton";
import { storeProfileSchema } from "@/shared/schemas/store";
import { todayIn } from "@/shared/metrics/date-range";

const DAY_MS = 86_400_000;

/** Stores' zones as their profiles name them (a store's zone changes seldom; a view names its store's zone once an hour). */
const zones = processSingleton("rollupStoreZones", () => new Map<string, { zone: string; at: number }>());
const ZONE_TTL_MS = 3_600_000;
const ZONES_MAX = 10_000;

/** The store's time zone, from its profile (read upstream with the caller's key, at most once an hour per store). */
export async function storeZone(upstream: UpstreamClient, storeUrl: string): Promise<string> {
  const found = zones.get(storeUrl);
  if (found && Date.now() - found.at < ZONE_TTL_MS) return found.zone;
  const { data } = await upstream.json("store-profile", storeProfileSchema, { params: { storeUrl } });
  if (zones.size >= ZONES_MAX) zones.clear();
  zones.set(storeUrl, { zone: data.timezone, at: Date.now() });
  return data.timezone;
}

/**
 * The first store-local day that is never stored: the store's today, in its own zone, less
 * `freshDays`. Today is never whole, so it is never stored, even with `freshDays` 0.
 */
export function firstFreshDay(now: Date, freshDays: number, timeZone: string): string {
  const today = Date.parse(`${todayIn(timeZone, now)}T00:00:00Z`);
  return new Date(today - freshDays * DAY_MS).toISOString().slice(0, 10);
}
