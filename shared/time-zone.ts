import { DAY_MS } from "@/shared/days";
/**
 * Wall-clock times in a zone, with Intl only: a `datetime-local` value has no zone, the store's gives it one. A zone is a known IANA name
 * or a fixed offset "+05:30", computed here since not every runtime's Intl accepts offsets.
 */

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

const formatters = new Map<string, Intl.DateTimeFormat>();
const unknownZones = new Set<string>();
const FIXED_OFFSET = /^([+-])(\d{2}):(\d{2})$/;

/** The offset of a "+05:30" zone in milliseconds, or null for any other zone. */
export function fixedOffsetMs(timeZone: string): number | null {
  const match = FIXED_OFFSET.exec(timeZone);
  if (!match || Number(match[2]) > 14 || Number(match[3]) > 59) return null;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return (match[1] === "-" ? -minutes : minutes) * 60_000;
}

/** "+05:30" for an offset in minutes; whole minutes only. */
export function fixedOffsetZone(offsetMinutes: number): string {
  const abs = Math.abs(offsetMinutes);
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${offsetMinutes < 0 ? "-" : "+"}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    // h23: midnight is 00, never 24.
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** How Intl shows a zone's clock: the zone itself, or for a fixed offset UTC after shifting; anything else reads as UTC (callers note). */
export function intlZone(timeZone: string): { timeZone: string; shiftMs: number } {
  const offset = fixedOffsetMs(timeZone);
  if (offset !== null) return { timeZone: "UTC", shiftMs: offset };
  return { timeZone: isValidTimeZone(timeZone) ? timeZone : "UTC", shiftMs: 0 };
}

/** The zone's wall clock at an instant, written as if it were UTC (whole seconds). */
function wallClockAsUtc(epochMs: number, timeZone: string): number {
  const zone = intlZone(timeZone);
  const parts: Record<string, number> = {};
  for (const part of formatterFor(zone.timeZone).formatToParts(new Date(epochMs + zone.shiftMs))) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
}

/** The zone's offset from UTC at an instant, in milliseconds (New York in winter: -5 h). */
export function timeZoneOffsetMs(epochMs: number, timeZone: string): number {
  const wholeSeconds = Math.floor(epochMs / 1000) * 1000;
  return wallClockAsUtc(wholeSeconds, timeZone) - wholeSeconds;
}

/** An IANA name (or alias) this runtime's Intl knows, or a fixed "+05:30" offset. */
export function isValidTimeZone(timeZone: string): boolean {
  if (fixedOffsetMs(timeZone) !== null || formatters.has(timeZone)) return true;
  if (unknownZones.has(timeZone)) return false;
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    // A refused zone costs a thrown error each time: remember it (a bounded set).
    if (unknownZones.size >= 500) unknownZones.clear();
    unknownZones.add(timeZone);
    return false;
  }
}

/** The instant (epoch ms) the zone's clocks show `local`; a skipped time or a non-date is null, a repeated time reads as the first. */
export function zonedLocalToEpochMs(local: string, timeZone: string): number | null {
  const match = LOCAL_DATE_TIME.exec(local);
  if (!match || !isValidTimeZone(timeZone)) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map((value) => Number(value ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(wall);
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) return null;

  // Zones change their offset at most a few times a year: the offsets a day before and a day after bracket every candidate instant.
  const offsets = new Set([timeZoneOffsetMs(wall - DAY_MS, timeZone), timeZoneOffsetMs(wall + DAY_MS, timeZone)]);
  const candidates = [...offsets]
    .map((offset) => wall - offset)
    .filter((instant) => wallClockAsUtc(instant, timeZone) === wall)
    .sort((a, b) => a - b);
  return candidates[0] ?? null;
}

/** The zone's wall clock at an instant, as a `datetime-local` value ("YYYY-MM-DDTHH:mm"). */
export function epochMsToZonedLocal(epochMs: number, timeZone: string): string {
  return new Date(wallClockAsUtc(epochMs, timeZone)).toISOString().slice(0, 16);
}
