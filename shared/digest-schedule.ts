import { epochMsToZonedLocal, zonedLocalToEpochMs } from "./time-zone";
import { addDays } from "@/shared/days";

/**
 * When a digest is due: daily or weekly (ISO weekday) at a wall-clock time in the store's zone, stepped by calendar days across DST. A
 * skipped time is sent at the next minute that exists; a repeated one at the first.
 */
export interface DigestCadence {
  cadence: "daily" | "weekly";
  weekday?: number | null;
  /** "HH:MM". */
  localTime: string;
  timeZone: string;
}

function isoWeekday(date: string): number {
  return ((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;
}

function instantOf(date: string, localTime: string, timeZone: string): number {
  const exact = zonedLocalToEpochMs(`${date}T${localTime}`, timeZone);
  if (exact !== null) return exact;
  // Skipped by a spring-forward: the first minute after it that the clocks show.
  for (let minutes = 1; minutes <= 180; minutes++) {
    const [hours, mins] = localTime.split(":").map(Number) as [number, number];
    const total = hours * 60 + mins + minutes;
    if (total >= 24 * 60) break;
    const later = `${String(Math.floor(total / 60)).padStart(2, "0")}:${String(total % 60).padStart(2, "0")}`;
    const instant = zonedLocalToEpochMs(`${date}T${later}`, timeZone);
    if (instant !== null) return instant;
  }
  return Date.parse(`${date}T${localTime}:00Z`);
}

/** The first due instant strictly after `after`. */
export function nextDigestSlot(schedule: DigestCadence, after: Date): Date {
  const startDate = epochMsToZonedLocal(after.getTime(), schedule.timeZone).slice(0, 10);
  for (let day = 0; day <= 8; day++) {
    const date = addDays(startDate, day);
    if (schedule.cadence === "weekly" && isoWeekday(date) !== schedule.weekday) continue;
    const instant = instantOf(date, schedule.localTime, schedule.timeZone);
    if (instant > after.getTime()) return new Date(instant);
  }
  throw new Error("No digest slot within eight days.");
}
