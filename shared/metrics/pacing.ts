import { DAY_MS, dateToUtcMs as toUtc, utcMsToDate as fromUtc } from "@/shared/days";
/**
 * Month-to-date revenue against a monthly target, in the store's time zone: the target pro-rated to the time elapsed, and a projection to
 * the month's end weighted by weekday (each remaining day is expected to bring what that weekday brought on average over the 8 weeks before
 * today), because stores sell differently on a Saturday than on a Tuesday.
 */
interface PacingInput {
  target: number;
  /** The month, `YYYY-MM`, in the store's zone. */
  month: string;
  /** Today in the store's zone, `YYYY-MM-DD`. */
  today: string;
  /** How much of today has passed in the store's zone, from 0 to 1. */
  dayFraction: number;
  /** Revenue by store-local date: the month so far (today's part included) and the 56 days before today. */
  daily: Readonly<Record<string, number>>;
}

export interface Pacing {
  month: string;
  target: number;
  monthToDate: number;
  /** The target times the share of the month that has passed. */
  proRatedTarget: number;
  /** Month to date, plus what the rest of the month should bring by weekday. */
  projected: number;
  daysInMonth: number;
  /** Days of the month passed, today's part included. */
  daysElapsed: number;
  /** Month to date against the pro-rated target (1 = exactly on pace). */
  paceRatio: number | null;
  /** Projection against the target. */
  projectedRatio: number;
  status: "ahead" | "on_track" | "behind";
  /** Whether the weekday weights came from history (false: the month's own daily rate). */
  weighted: boolean;
}

/** The 8 weeks before today weigh each weekday. */
export const HISTORY_DAYS = 56;
/** Within this share of the target either way, a month is "on track". */
const ON_TRACK_BAND = 0.05;

const weekday = (date: string) => new Date(toUtc(date)).getUTCDay();

export function daysInMonth(month: string): number {
  const [year, monthIndex] = month.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(year, monthIndex, 0)).getUTCDate();
}

/** The first and last store-local dates of a month. */
export function monthRange(month: string): { startDate: string; endDate: string } {
  return { startDate: `${month}-01`, endDate: `${month}-${String(daysInMonth(month)).padStart(2, "0")}` };
}

/** Average revenue by weekday over the history before `today`; null for a weekday without history. */
export function weekdayAverages(daily: Readonly<Record<string, number>>, today: string): (number | null)[] {
  const sums = Array<number>(7).fill(0);
  const counts = Array<number>(7).fill(0);
  for (let offset = 1; offset <= HISTORY_DAYS; offset++) {
    const date = fromUtc(toUtc(today) - offset * DAY_MS);
    if (!(date in daily)) continue;
    sums[weekday(date)]! += daily[date]!;
    counts[weekday(date)]! += 1;
  }
  return sums.map((sum, index) => (counts[index]! > 0 ? sum / counts[index]! : null));
}

export function pacing(input: PacingInput): Pacing {
  const { target, month, today } = input;
  const { startDate, endDate } = monthRange(month);
  const total = daysInMonth(month);
  const fraction = Math.min(1, Math.max(0, input.dayFraction));
  const daysElapsed = today < startDate ? 0 : today > endDate ? total : Number(today.slice(8, 10)) - 1 + fraction;

  let monthToDate = 0;
  for (let day = toUtc(startDate); day <= Math.min(toUtc(endDate), toUtc(today)); day += DAY_MS)
    monthToDate += input.daily[fromUtc(day)] ?? 0;

  const averages = weekdayAverages(input.daily, today);
  const known = averages.filter((value): value is number => value !== null);
  const weighted = known.length > 0;
  // Without history, the month's own rate so far stands for every day.
  const runRate = daysElapsed > 0 ? monthToDate / daysElapsed : 0;
  const fallback = weighted ? known.reduce((sum, value) => sum + value, 0) / known.length : runRate;
  const expected = (date: string) => averages[weekday(date)] ?? fallback;

  let rest = 0;
  if (today <= endDate) {
    const first = today < startDate ? startDate : today;
    for (let day = toUtc(first); day <= toUtc(endDate); day += DAY_MS) {
      const date = fromUtc(day);
      rest += date === today ? expected(date) * (1 - fraction) : expected(date);
    }
  }
  const projected = monthToDate + rest;
  const proRatedTarget = (target * daysElapsed) / total;
  const projectedRatio = projected / target;
  return {
    month,
    target,
    monthToDate,
    proRatedTarget,
    projected,
    daysInMonth: total,
    daysElapsed,
    paceRatio: proRatedTarget > 0 ? monthToDate / proRatedTarget : null,
    projectedRatio,
    status: projectedRatio >= 1 + ON_TRACK_BAND ? "ahead" : projectedRatio >= 1 - ON_TRACK_BAND ? "on_track" : "behind",
    weighted,
  };
}

/** Revenue by store-local date, for the whole store or one channel: what `pacing` reads. */
export function dailyRevenue(
  series: readonly { date: string; channel: string; revenue: number }[],
  channel?: string | null,
): Record<string, number> {
  const daily: Record<string, number> = {};
  for (const point of series) if (!channel || point.channel === channel) daily[point.date] = (daily[point.date] ?? 0) + point.revenue;
  return daily;
}

/** How much of the day has passed at a store-local wall-clock time `YYYY-MM-DDTHH:mm`, from 0 to 1. */
export function dayFractionAt(localDateTime: string): number {
  const [hours, minutes] = localDateTime.slice(11, 16).split(":").map(Number) as [number, number];
  return (hours * 60 + minutes) / 1440;
}
