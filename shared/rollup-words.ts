import { formatDateTime } from "./format";
import type { RollupStatus } from "./schemas/rollups";

const monthYear = (day: string) =>
  new Intl.DateTimeFormat("en-US", { month: "short", year: "numeric", timeZone: "UTC" }).format(new Date(`${day}T00:00:00Z`));

/**
 * The store overview's line on the rollups: "Preparing the last 13 months: 61 %" while a warm-up
 * runs, "Figures kept for Nov 2025 – Nov 2026, as of Nov 29, 2026, 10:42 AM EST" once days are held (the time in the
 * store's zone), nothing when the rollups are off or hold nothing.
 */
export function rollupWords(status: RollupStatus, timeZone: string): string | null {
  if (!status.enabled) return null;
  if (status.filling && status.percent < 100) return `Preparing the last 13 months: ${status.percent} %`;
  if (!status.heldFrom || !status.heldTo) return null;
  const asOf = status.asOf ? `, as of ${formatDateTime(status.asOf, timeZone)}` : "";
  return `Figures kept for ${monthYear(status.heldFrom)} – ${monthYear(status.heldTo)}${asOf}`;
}
