import "server-only";
import type { Db } from "@/server/db/database";
import { queueDb } from "@/server/jobs/queue";
import type { UpstreamClient } from "@/server/upstream/client";
import { settings } from "@/server/config/settings";
import type { RollupStatus } from "@/shared/schemas/rollups";
import { firstFreshDay, storeZone } from "./zone";

const DAY_MS = 86_400_000;

/** The store's rollups (the conversion attribution, which the overview shows), on `db` whose reach holds the store. */
export async function rollupStatus(db: Db, upstream: UpstreamClient, storeUrl: string, now = new Date()): Promise<RollupStatus> {
  const { enabled, freshDays } = settings().rollups;
  if (!enabled) return { enabled, filling: false, percent: 0, heldFrom: null, heldTo: null, asOf: null };
  const freshFrom = firstFreshDay(now, freshDays, await storeZone(upstream, storeUrl));
  const thirteenMonths = new Date(Date.parse(`${freshFrom.slice(0, 7)}-01T00:00:00Z`));
  thirteenMonths.setUTCMonth(thirteenMonths.getUTCMonth() - 12);
  const from = thirteenMonths.toISOString().slice(0, 10);
  const closedDays = Math.round((Date.parse(`${freshFrom}T00:00:00Z`) - thirteenMonths.getTime()) / DAY_MS);
  const [held] = await db.query<{ days: number; first: string | null; last: string | null; asOf: Date | null }>(
    `select count(*) filter (where day >= $2 and day < $3)::int as days, to_char(min(day), 'YYYY-MM-DD') as first,
       to_char(max(day), 'YYYY-MM-DD') as last, min(filled_at) as "asOf"
     from rollup_days where store_url = $1 and source = 'conversion' and filter_key = ''`,
    [storeUrl, from, freshFrom],
  );
  const [jobs] = await (
    await queueDb()
  ).query<{ n: number }>(
    "select count(*)::int as n from jobs where name = 'rollups.fill' and store_url = $1 and state in ('queued', 'running')",
    [storeUrl],
  );
  return {
    enabled,
    filling: (jobs?.n ?? 0) > 0,
    percent: closedDays > 0 ? Math.min(100, Math.floor(((held?.days ?? 0) * 100) / closedDays)) : 100,
    heldFrom: held?.first ?? null,
    heldTo: held?.last ?? null,
    asOf: held?.asOf ? new Date(held.asOf).toISOString() : null,
  };
}
