import { compactChange, type CompactChange } from "../../shared/metrics/comparison";

/**
 * What a change badge shows for two revenues summed in cents from the raw rows: the page's own
 * formatter decides the text ("↓6.0%", "0.0%", "new"), so an expectation never depends on which
 * day the suite runs.
 */
export function expectedRevenueChange(nowCents: number, beforeCents: number, against: string): CompactChange {
  return compactChange(nowCents / 100, beforeCents / 100, against);
}

/** Revenue in cents of one store-local day range, summed from raw rows (each rounded to the cent). */
export function revenueCentsBetween(rows: readonly { date: string; revenue: number }[], from: string, to: string): number {
  return rows.filter((row) => row.date >= from && row.date <= to).reduce((total, row) => total + Math.round(row.revenue * 100), 0);
}
