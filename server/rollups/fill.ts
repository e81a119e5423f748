import "server-only";
import type { UpstreamClient } from "@/server/upstream/client";
import { DayCells, dayWrite, type DayWrite } from "./cells";
import { RangeSummary } from "./range-summary";
import { buildMonthsQuietly, daysInMonth, monthOf } from "./grain";
import { daysOf, heldDays, runsOf, streamRun, type RollupPolicy } from "./reader";
import { saveDays, type RollupScope } from "./repository";

/** Store-days written per transaction. */
const SAVE_EVERY_DAYS = 7;

/** The first and last day of a month (`YYYY-MM-01`). */
const monthRange = (month: string) => ({
  startDate: month,
  endDate: `${month.slice(0, 8)}${String(daysInMonth(month)).padStart(2, "0")}`,
});

/**
 * Fills one month of a store (per attribution): reads the closed days of the month that the
 * rollups miss or hold stale, one upstream request per run of consecutive days, writes them
 * (recording restatements of days held before: saveDays) and builds the month's product sums
 * once every day of it is held. Closed is judged in the store's own zone (zone.ts). Runs as a
 * job (fill-job.ts), never on a view's path. Returns the days written and restated.
 */
export async function fillMonth(
  upstream: UpstreamClient,
  scope: RollupScope,
  month: string,
  policy: RollupPolicy,
): Promise<{ written: number; restated: number }> {
  const range = monthRange(month);
  const { closed, fresh, stale } = await heldDays(upstream, scope, range, policy);
  const wanted = daysOf(range.startDate, range.endDate).filter((day) => closed(day) && !fresh.has(day));
  let written = 0;
  let restated = 0;
  for (const run of runsOf(wanted)) {
    const days = new Map<string, DayWrite>();
    // Rows that do not arrive day by day inside the run cannot be stored as whole days.
    let disordered = false;
    let last: string | undefined;
    await streamRun(upstream, scope.storeUrl, { ...range, dimension_source: scope.source }, run, {
      summary: new RangeSummary(),
      filter: {},
      write: true,
      // A day held before keeps its cells: its restatement names the channels and products that moved.
      keepCells: run.filter((day) => stale.has(day)),
      onDay: (day) => {
        if (!run.includes(day.day) || days.has(day.day) || (last !== undefined && day.day < last)) disordered = true;
        last = day.day;
        days.set(day.day, day);
      },
    });
    if (disordered) continue;
    // Days without a single row are days too: stored as empty.
    const ready = run.map((day) => days.get(day) ?? dayWrite(new DayCells(day), false));
    for (let start = 0; start < ready.length; start += SAVE_EVERY_DAYS) {
      restated += await saveDays(policy.db, scope, ready.slice(start, start + SAVE_EVERY_DAYS), policy.now?.() ?? new Date());
    }
    written += ready.length;
  }
  await buildMonthsQuietly(policy.db, scope, [month], { missingOnly: true });
  return { written, restated };
}

/** The months of `days`, newest first. */
export const monthsOf = (days: string[]) => [...new Set(days.map(monthOf))].sort().reverse();

/** The fills of the months of `days`, newest first, one after another, as the queue runs them for one store. */
export async function fillDays(upstream: UpstreamClient, scope: RollupScope, days: string[], policy: RollupPolicy): Promise<void> {
  for (const month of monthsOf(days)) await fillMonth(upstream, scope, month, policy);
}
