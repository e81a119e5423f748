import "server-only";
import type { Db } from "@/server/db/database";
import { notesInRange } from "@/server/notes/notes";
import { revenueTargets } from "@/server/notes/targets";
import { productMetricsView } from "@/server/metrics/service";
import type { UpstreamClient } from "@/server/upstream/client";
import { digestSummary, type DigestSummary } from "@/shared/digest-summary";
import { comparisonRange, todayIn } from "@/shared/metrics/date-range";
import { settings } from "@/server/config/settings";
import { restatedDays, type RestatedDay, type RestatedSince } from "./restated";
import { dailyRevenue, dayFractionAt, HISTORY_DAYS, pacing, type Pacing } from "@/shared/metrics/pacing";
import { dateRangeOf, filtersOf, parseViewState } from "@/shared/metrics/view-state";
import type { ProductMetricsView } from "@/shared/schemas/product-metrics-view";
import { epochMsToZonedLocal } from "@/shared/time-zone";
import { interpretTimeZone } from "@/shared/store-locale";
import { addDays } from "@/shared/days";

/** What a digest says, computed at send time from the view's settings (its range as of now). */
export interface DigestContent {
  storeUrl: string;
  viewName: string;
  /** The view's query: the link opens exactly this view. */
  search: string;
  timeZone: string;
  sentAt: Date;
  metrics: ProductMetricsView;
  notes: { startDate: string; endDate: string; text: string; authorEmail: string }[];
  pacing: Pacing | null;
  /** The view's filters, attribution, range and comparison in words. */
  summary: DigestSummary;
  /**
   * Days of the range or its comparison restated since the previous send (none when the day
   * rollups are off: nothing records restatements), and when they were looked up.
   */
  restated: { days: RestatedDay[]; lastDigest: boolean; asOf: Date };
}

/** Month-to-date against the store's target for this month (whole store), weighted by weekday history. */
async function pacingNow(
  db: Db,
  upstream: UpstreamClient,
  scope: { organizationId: string; storeUrl: string },
  timeZone: string,
  now: Date,
) {
  const today = todayIn(timeZone, now);
  const month = today.slice(0, 7);
  const target = (await revenueTargets(db, scope, month)).find((candidate) => candidate.channel === null);
  if (!target) return null;
  const history = await productMetricsView(
    upstream,
    scope.storeUrl,
    { startDate: addDays(today, -HISTORY_DAYS), endDate: today },
    undefined,
  ).view;
  const dayFraction = dayFractionAt(epochMsToZonedLocal(now.getTime(), interpretTimeZone(timeZone).zone));
  return pacing({ target: target.amount, month, today, dayFraction, daily: dailyRevenue(history.series) });
}

export async function composeDigest(
  db: Db,
  upstream: UpstreamClient,
  input: { organizationId: string; storeUrl: string; viewName: string; search: string; timeZone: string },
  now: Date,
  restatedSince: RestatedSince | null = null,
): Promise<DigestContent> {
  const { state } = parseViewState(new URLSearchParams(input.search));
  const range = dateRangeOf(state, input.timeZone, now);
  // A digest always compares, once: the view's own comparison, else (or with two) the period just before.
  const compare = state.compare === "off" || state.compare === "both" ? "previous" : state.compare;
  const filters = filtersOf(state, range, state.source === "both" ? "conversion" : state.source);
  const scope = { organizationId: input.organizationId, storeUrl: input.storeUrl };
  const [metrics, notes, pace] = await Promise.all([
    productMetricsView(upstream, input.storeUrl, filters, compare).view,
    notesInRange(db, scope, range),
    pacingNow(db, upstream, scope, input.timeZone, now),
  ]);
  // Looked up after the view's reads, whose writes record the restatements they find.
  const asOf = new Date();
  const days =
    restatedSince && settings().rollups.enabled
      ? await restatedDays(
          db,
          input.storeUrl,
          filters.dimension_source ?? "conversion",
          [range, comparisonRange(range, compare)],
          restatedSince.at,
          asOf,
        )
      : [];
  return {
    storeUrl: input.storeUrl,
    viewName: input.viewName,
    search: input.search,
    timeZone: input.timeZone,
    sentAt: now,
    metrics,
    notes: notes.map((note) => ({ startDate: note.startDate, endDate: note.endDate, text: note.text, authorEmail: note.authorEmail })),
    pacing: pace,
    summary: digestSummary(input.search, input.timeZone, now),
    restated: { days, lastDigest: restatedSince?.lastDigest ?? false, asOf },
  };
}
