import { activityFiltersSchema, type ActivityFilters } from "@/shared/schemas/activity";
import { fixedOffsetMs, zonedLocalToEpochMs } from "@/shared/time-zone";
import { addDays } from "@/shared/days";

/** The filters in the order the URL, the API query and the CSV header list them. */
const ACTIVITY_FILTER_NAMES = ["action", "outcome", "store", "person", "from", "to"] as const satisfies readonly (keyof ActivityFilters)[];

/** The Activity filters from its URL, each checked alone: a refused value is dropped, the others still apply. */
export function filtersFromSearch(search: URLSearchParams): ActivityFilters {
  const filters: Record<string, string> = {};
  for (const name of ACTIVITY_FILTER_NAMES) {
    const value = search.get(name);
    if (value === null) continue;
    const parsed = activityFiltersSchema.shape[name].safeParse(value);
    if (parsed.success && parsed.data !== undefined) filters[name] = parsed.data;
  }
  const result = activityFiltersSchema.parse(filters);
  // A range given backwards is read the way it was meant.
  if (result.from && result.to && result.from > result.to) return { ...result, from: result.to, to: result.from };
  return result;
}

/** The filters as a query string (without "?"), empty ones left out: for the URL, the API and the export. */
export function searchOfFilters(filters: ActivityFilters, extra: Record<string, string | undefined> = {}): string {
  const search = new URLSearchParams();
  for (const name of ACTIVITY_FILTER_NAMES) {
    const value = filters[name];
    if (value) search.set(name, value);
  }
  for (const [name, value] of Object.entries(extra)) if (value) search.set(name, value);
  return search.toString();
}

export const hasFilters = (filters: ActivityFilters) => ACTIVITY_FILTER_NAMES.some((name) => filters[name] !== undefined);

/** The instant a day starts in a zone (a zone whose clocks skip midnight that day: when they resume). */
function dayStart(date: string, timeZone: string): Date {
  const fixed = fixedOffsetMs(timeZone);
  if (fixed !== null) return new Date(Date.parse(`${date}T00:00:00Z`) - fixed);
  for (const hour of ["00", "01", "02"]) {
    const instant = zonedLocalToEpochMs(`${date}T${hour}:00`, timeZone);
    if (instant !== null) return new Date(instant);
  }
  return new Date(`${date}T00:00:00Z`);
}

/** The date filters as instants in a store's zone, from the first day's start to the day after the last. */
export function dayBoundsIn(filters: Pick<ActivityFilters, "from" | "to">, timeZone: string): { from?: Date; to?: Date } {
  const next = (date: string) => addDays(date, 1);
  return {
    from: filters.from ? dayStart(filters.from, timeZone) : undefined,
    to: filters.to ? dayStart(next(filters.to), timeZone) : undefined,
  };
}
