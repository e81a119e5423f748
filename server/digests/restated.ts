import "server-only";
import type { Db } from "@/server/db/database";
import { restatements } from "@/server/rollups/restatements";
import type { DataChange } from "@/shared/schemas/data-change";
import type { DimensionSource } from "@/shared/schemas/product-metrics";
import { formatCurrency, formatDate, formatNumber } from "@/shared/format";

/** A day of a digest's ranges restated since the digest's previous send: its first figures then and its latest now. */
export interface RestatedDay {
  day: string;
  currency: string | null;
  revenue: { before: number; after: number };
  orders: { before: number; after: number };
  /** The channel whose revenue moved most over those restatements. */
  mostly: string | null;
}

/** Since when a digest names restated days: its previous send, or (before its first) when it was scheduled. */
export interface RestatedSince {
  at: Date;
  lastDigest: boolean;
}

type Range = { startDate: string; endDate: string };

/**
 * The days of `ranges` (the digest's range and its comparison) restated for `source` after
 * `since` and up to `until`, oldest day first, one per day however often it moved.
 */
export async function restatedDays(
  db: Db,
  storeUrl: string,
  source: DimensionSource,
  ranges: Range[],
  since: Date,
  until: Date,
): Promise<RestatedDay[]> {
  const found = new Map<string, DataChange>();
  for (const range of ranges) for (const change of await restatements(db, storeUrl, range)) found.set(change.id, change);
  const byDay = new Map<string, DataChange[]>();
  for (const change of found.values()) {
    const at = Date.parse(change.detectedAt);
    if (change.source !== source || at <= since.getTime() || at > until.getTime()) continue;
    byDay.set(change.day, [...(byDay.get(change.day) ?? []), change]);
  }
  return [...byDay.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([day, changes]) => {
      const ordered = changes.sort((a, b) => Date.parse(a.detectedAt) - Date.parse(b.detectedAt));
      const first = ordered[0]!;
      const last = ordered.at(-1)!;
      const channels = new Map<string, number>();
      for (const change of ordered)
        for (const { key, change: amount } of change.channels) channels.set(key, (channels.get(key) ?? 0) + amount);
      const mostly = [...channels.entries()].sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]) || a[0].localeCompare(b[0]))[0];
      return {
        day,
        currency: last.currency ?? first.currency,
        revenue: { before: first.revenue.before, after: last.revenue.after },
        orders: { before: first.orders.before, after: last.orders.after },
        mostly: mostly && mostly[1] !== 0 ? mostly[0] : null,
      };
    });
}

const signed = (value: number) => `${value > 0 ? "+" : value < 0 ? "−" : "±"}${formatNumber(Math.abs(value))}`;

/** "Oct 3, 2026 was restated since the last digest: revenue +$120.40 (was $1,203.10), mostly facebook". */
export function restatedLine(day: RestatedDay, lastDigest: boolean, fallbackCurrency: string | null): string {
  const currency = day.currency ?? fallbackCurrency;
  const revenueChange = day.revenue.after - day.revenue.before;
  const moved =
    Math.abs(revenueChange) >= 0.005 || day.orders.after === day.orders.before
      ? `revenue ${formatCurrency(revenueChange, currency, true)} (was ${formatCurrency(day.revenue.before, currency)})`
      : `orders ${signed(day.orders.after - day.orders.before)} (was ${formatNumber(day.orders.before)})`;
  const since = lastDigest ? "since the last digest" : "since this digest was scheduled";
  return `${formatDate(`${day.day}T12:00:00Z`, "UTC")} was restated ${since}: ${moved}${day.mostly ? `, mostly ${day.mostly}` : ""}`;
}
