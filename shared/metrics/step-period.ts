import { addDays, dayCount, type DateRange } from "./date-range";

/** The range of the same length just before (-1) or after (+1), never past `today` (null when already there). */
export function stepRange(range: DateRange, direction: -1 | 1, today: string): DateRange | null {
  const length = dayCount(range);
  if (direction === 1 && range.endDate >= today) return null;
  const startDate = addDays(range.startDate, direction * length);
  const endDate = addDays(range.endDate, direction * length);
  if (endDate <= today) return { startDate, endDate };
  return { startDate: addDays(today, -(length - 1)), endDate: today };
}
