import { interpretTimeZone } from "@/shared/store-locale";
import { epochMsToZonedLocal } from "@/shared/time-zone";
import { addDays, dateToUtcMs, datesFrom, daysBetween } from "@/shared/days";

/** Date ranges in the store's zone: plain `YYYY-MM-DD` strings (the contract's), computed in UTC where every day has 24 hours. */

export const presets = [
  "today",
  "yesterday",
  "thisWeek",
  "lastWeek",
  "last7",
  "last30",
  "last90",
  "last365",
  "monthToDate",
  "lastMonth",
  "thisQuarter",
  "lastQuarter",
  "last12Months",
  "yearToDate",
] as const;
export type Preset = (typeof presets)[number];

export const presetLabels: Record<Preset, string> = {
  today: "Today",
  yesterday: "Yesterday",
  thisWeek: "This week",
  lastWeek: "Last week",
  last7: "Last 7 days",
  last30: "Last 30 days",
  last90: "Last 90 days",
  last365: "Last 365 days",
  monthToDate: "Month to date",
  lastMonth: "Last month",
  thisQuarter: "This quarter",
  lastQuarter: "Last quarter",
  last12Months: "Last 12 months",
  yearToDate: "Year to date",
};

export interface DateRange {
  startDate: string;
  endDate: string;
}

/** Days from start to end, both included. */
export function dayCount({ startDate, endDate }: DateRange): number {
  return daysBetween(startDate, endDate) + 1;
}

/** Today's date in a zone (as `interpretTimeZone` reads it), whatever the browser's; an unusable zone reads as UTC. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  return epochMsToZonedLocal(now.getTime(), interpretTimeZone(timeZone).zone).slice(0, 10);
}

export function resolvePreset(preset: Preset, timeZone: string, now: Date = new Date()): DateRange {
  const today = todayIn(timeZone, now);
  const firstOfMonth = `${today.slice(0, 8)}01`;
  switch (preset) {
    case "today":
      return { startDate: today, endDate: today };
    case "yesterday":
      return { startDate: addDays(today, -1), endDate: addDays(today, -1) };
    case "last7":
      return { startDate: addDays(today, -6), endDate: today };
    case "last30":
      return { startDate: addDays(today, -29), endDate: today };
    case "last90":
      return { startDate: addDays(today, -89), endDate: today };
    case "last365":
      return { startDate: addDays(today, -364), endDate: today };
    case "last12Months": {
      // The twelve whole months before this one: every month complete, none of them partial.
      const start = `${Number(today.slice(0, 4)) - 1}${firstOfMonth.slice(4)}`;
      return { startDate: start, endDate: addDays(firstOfMonth, -1) };
    }
    case "yearToDate":
      return { startDate: `${today.slice(0, 4)}-01-01`, endDate: today };
    case "monthToDate":
      return { startDate: firstOfMonth, endDate: today };
    case "lastMonth": {
      const lastDay = addDays(firstOfMonth, -1);
      return { startDate: `${lastDay.slice(0, 8)}01`, endDate: lastDay };
    }
    // Weeks start on Monday (ISO), quarters in January, April, July and October: in the store's days.
    case "thisWeek":
      return { startDate: bucketStart(today, "week"), endDate: today };
    case "lastWeek": {
      const monday = addDays(bucketStart(today, "week"), -7);
      return { startDate: monday, endDate: addDays(monday, 6) };
    }
    case "thisQuarter":
      return { startDate: quarterStart(today), endDate: today };
    case "lastQuarter": {
      const end = addDays(quarterStart(today), -1);
      return { startDate: quarterStart(end), endDate: end };
    }
  }
}

/** The first day of the date's quarter ("2026-11-29" → "2026-10-01"). */
function quarterStart(date: string): string {
  const month = Math.floor((Number(date.slice(5, 7)) - 1) / 3) * 3 + 1;
  return `${date.slice(0, 4)}-${String(month).padStart(2, "0")}-01`;
}

/** 52 weeks: a year earlier on the same weekday, so Saturdays are compared with Saturdays. */
const WEEKS_OF_A_YEAR_DAYS = 364;

/** The period to compare with: the same length just before, or the same weekdays 52 weeks earlier. */
export function comparisonRange(range: DateRange, mode: "previous" | "year"): DateRange {
  const shift = mode === "year" ? WEEKS_OF_A_YEAR_DAYS : dayCount(range);
  return { startDate: addDays(range.startDate, -shift), endDate: addDays(range.endDate, -shift) };
}

/** Every date from start to end, both included. */
export function datesOf(range: DateRange): string[] {
  return datesFrom(range.startDate, range.endDate);
}

/** The bucket a day falls in (its ISO week's Monday, or its month's first); text that is not a date stays its own bucket. */
export function bucketStart(date: string, granularity: "day" | "week" | "month"): string {
  if (granularity === "day" || !/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(dateToUtcMs(date))) return date;
  if (granularity === "month") return `${date.slice(0, 8)}01`;
  const weekday = (new Date(dateToUtcMs(date)).getUTCDay() + 6) % 7;
  return addDays(date, -weekday);
}

export { addDays, daysBetween };
