/**
 * Day arithmetic, in one place: calendar dates (`YYYY-MM-DD`) counted as UTC days, and instants
 * moved by whole days. A store's own day (its time zone) is `shared/time-zone.ts`'s.
 */

/** One day in milliseconds. */
export const DAY_MS = 86_400_000;

/** The instant a date begins in UTC. */
export const dateToUtcMs = (date: string): number => Date.parse(`${date}T00:00:00Z`);

/** The UTC date of an instant. */
export const utcMsToDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

export function addDays(date: string, days: number): string {
  return utcMsToDate(dateToUtcMs(date) + days * DAY_MS);
}

/** Days from one date to another (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((dateToUtcMs(to) - dateToUtcMs(from)) / DAY_MS);
}

/** Every date from `start` to `end`, both included. */
export function datesFrom(start: string, end: string): string[] {
  const dates: string[] = [];
  for (let day = dateToUtcMs(start); day <= dateToUtcMs(end); day += DAY_MS) dates.push(utcMsToDate(day));
  return dates;
}

/** An instant `days` whole days after `at` (before it when negative). */
export const daysAfter = (at: Date, days: number): Date => new Date(at.getTime() + days * DAY_MS);
