import "server-only";
import { anomalyVerdict, MAX_WEEKS, median, sameWeekdayBefore, thresholdVerdict, type Verdict } from "@/shared/metrics/anomaly";
import { whatMoved } from "@/shared/metrics/what-moved";
import { filtersOf, parseViewState } from "@/shared/metrics/view-state";
import { interpretTimeZone } from "@/shared/store-locale";
import { epochMsToZonedLocal } from "@/shared/time-zone";
import type { AlertRuleInput, JudgedPeriod, WhatMoved } from "@/shared/schemas/alert";
import type { MetricsFilters } from "@/shared/schemas/product-metrics-view";
import type { UpstreamClient } from "@/server/upstream/client";
import type { PeriodSums, RunReads, Summary } from "./reads";
import { addDays } from "@/shared/days";

/** What a check needs besides the rule: the upstream (session or grant), the run's shared reads, and the saved view's query. */
interface CheckContext {
  upstream: UpstreamClient;
  reads: RunReads;
  storeUrl: string;
  /** The URL query of the rule's saved view, when it has one. */
  savedViewSearch: string | null;
}

export interface RuleCheck extends JudgedPeriod {
  score: number | null;
  quiet?: Verdict["quiet"];
  currency: string | null;
  whatMoved: WhatMoved | null;
  /** The watched product's name, when the rows carry it. */
  targetName?: string;
}

/**
 * The last complete period in the store's zone at `now`: yesterday for daily rules, the hour
 * before this one for hourly rules ("2026-11-23 14:00").
 */
export function lastCompletePeriod(granularity: "day" | "hour", timeZone: string, now: Date): string {
  const zone = interpretTimeZone(timeZone).zone;
  if (granularity === "day") return addDays(epochMsToZonedLocal(now.getTime(), zone).slice(0, 10), -1);
  const local = epochMsToZonedLocal(now.getTime() - 3_600_000, zone);
  return `${local.slice(0, 10)} ${local.slice(11, 13)}:00`;
}

/** The same weekday (and hour) of each earlier week the rule compares with, newest first. */
function comparablePeriods(period: string, weeks: number): string[] {
  const [date, hour] = period.split(" ");
  return sameWeekdayBefore(date!, weeks).map((earlier) => (hour ? `${earlier} ${hour}` : earlier));
}

/** The upstream query a rule reads: its saved view's filters, narrowed to its channel or product. */
function ruleFilters(rule: AlertRuleInput, savedViewSearch: string | null, startDate: string, endDate: string): MetricsFilters {
  const state = parseViewState(new URLSearchParams(savedViewSearch ?? "")).state;
  const source = state.source === "first_touch" ? "first_touch" : "conversion";
  const filters = filtersOf(state, { startDate, endDate }, source);
  if (rule.target.kind === "channel") filters.channel = rule.target.channel;
  if (rule.target.kind === "product") filters.filterProductId = rule.target.productId;
  return filters;
}

const valueOf = (rule: AlertRuleInput, sums: PeriodSums | undefined) => (sums ? sums.total[rule.metric] : 0);

function judge(rule: AlertRuleInput, summary: Summary, period: string): JudgedPeriod & { verdict: Verdict; history: string[] } {
  const value = valueOf(rule, summary.periods.get(period));
  const weeks = rule.condition.kind === "anomaly" ? rule.condition.weeks : MAX_WEEKS;
  // Only the weeks that have data: a week before the store sold anything is no evidence of a usual level.
  const history = comparablePeriods(period, weeks).filter((earlier) => summary.periods.has(earlier));
  const verdict =
    rule.condition.kind === "threshold"
      ? thresholdVerdict(value, rule.condition.operator, rule.condition.threshold)
      : anomalyVerdict(
          value,
          history.map((earlier) => valueOf(rule, summary.periods.get(earlier))),
          rule.condition,
        );
  return {
    period,
    value,
    baseline: Number.isFinite(verdict.baseline) ? verdict.baseline : null,
    fires: verdict.fires,
    ...(verdict.quiet === "too_little_history" ? { learningWeeks: history.length } : {}),
    verdict,
    history,
  };
}

function metricMap(rule: AlertRuleInput, sums: Map<string, { revenue: number; orders: number; units: number }> | undefined) {
  return new Map([...(sums ?? [])].map(([key, value]) => [key, value[rule.metric]]));
}

/** The channels and products that account for most of the period's move against the weeks compared. */
function explain(rule: AlertRuleInput, summary: Summary, period: string, history: string[]): WhatMoved {
  const now = summary.periods.get(period);
  const before = history.map((earlier) => summary.periods.get(earlier));
  const channels = whatMoved(
    metricMap(rule, now?.channels),
    before.map((sums) => metricMap(rule, sums?.channels)),
  );
  const products = whatMoved(
    metricMap(rule, now?.products),
    before.map((sums) => metricMap(rule, sums?.products)),
  );
  const named = products.movers.map((mover) => {
    const name = summary.productNames.get(mover.key);
    return name ? { ...mover, name } : mover;
  });
  return { net: channels.net, channels: channels.movers, products: named };
}

async function readFor(rule: AlertRuleInput, context: CheckContext, firstPeriod: string, lastPeriod: string): Promise<Summary> {
  const startDate = addDays(firstPeriod.slice(0, 10), -7 * MAX_WEEKS);
  const filters = ruleFilters(rule, context.savedViewSearch, startDate, lastPeriod.slice(0, 10));
  // Hourly rules need hour sums, which the day rollups do not keep: they read the upstream's rows.
  return rule.granularity === "day"
    ? context.reads.daySummary(context.upstream, context.storeUrl, filters)
    : context.reads.summary(context.upstream, context.storeUrl, filters);
}

/**
 * Judges the rule's last complete period at `now`. One read covers the period and the eight
 * weeks before it (always eight, so rules differing only in their weeks share it): for a daily
 * rule through the day rollups when they are on, else one upstream read.
 */
export async function checkRule(rule: AlertRuleInput, context: CheckContext, now: Date): Promise<RuleCheck> {
  const { timezone } = await context.reads.profile(context.upstream, context.storeUrl);
  const period = lastCompletePeriod(rule.granularity, timezone, now);
  const summary = await readFor(rule, context, period, period);
  const judged = judge(rule, summary, period);
  return {
    period,
    value: judged.value,
    baseline: judged.baseline,
    fires: judged.fires,
    score: judged.verdict.score,
    ...(judged.learningWeeks === undefined ? {} : { learningWeeks: judged.learningWeeks }),
    ...(judged.verdict.quiet ? { quiet: judged.verdict.quiet } : {}),
    currency: summary.currency,
    whatMoved: judged.fires ? explain(rule, summary, period, judged.history) : null,
    ...(rule.target.kind === "product" && summary.productNames.has(rule.target.productId)
      ? { targetName: summary.productNames.get(rule.target.productId) }
      : {}),
  };
}

export const BACKTEST_DAYS = 90;

/** The median of the value over the comparable periods that have data; null without any. */
function usualOf(rule: AlertRuleInput, summary: Summary, history: readonly string[]): number | null {
  return history.length === 0 ? null : median(history.map((earlier) => valueOf(rule, summary.periods.get(earlier))));
}

/**
 * "Over the last 90 days this rule would have fired on these dates": each day (or hour) judged
 * as a check would have judged it then, and the first period of each episode.
 */
export async function backtestRule(
  rule: AlertRuleInput,
  context: CheckContext,
  now: Date,
): Promise<{ currency: string | null; periods: JudgedPeriod[]; firedOn: string[] }> {
  const { timezone } = await context.reads.profile(context.upstream, context.storeUrl);
  const last = lastCompletePeriod(rule.granularity, timezone, now);
  const lastDate = last.slice(0, 10);
  const days = rule.granularity === "hour" ? 7 : BACKTEST_DAYS;
  const firstDate = addDays(lastDate, 1 - days);
  const summary = await readFor(rule, context, firstDate, lastDate);
  const periods: JudgedPeriod[] = [];
  for (let offset = 0; offset < days; offset++) {
    const date = addDays(firstDate, offset);
    const keys = rule.granularity === "day" ? [date] : Array.from({ length: 24 }, (_, h) => `${date} ${String(h).padStart(2, "0")}:00`);
    for (const key of keys) {
      if (key > last) break;
      const { period, value, baseline, fires, learningWeeks, history } = judge(rule, summary, key);
      // "Usual" is the usual value (the median of the same weekday) for a threshold rule too, never the threshold itself.
      const usual = rule.condition.kind === "threshold" ? usualOf(rule, summary, history) : baseline;
      periods.push({ period, value, baseline: usual, fires, ...(learningWeeks === undefined ? {} : { learningWeeks }) });
    }
  }
  const firedOn = periods.filter((judged, index) => judged.fires && !periods[index - 1]?.fires).map((judged) => judged.period);
  return { currency: summary.currency, periods, firedOn };
}
