import { fixedOffsetMs, fixedOffsetZone, isValidTimeZone } from "./time-zone";

/**
 * The one place that reads the upstream's open values (time zone, currency, enum-like strings the contract leaves open), so pages, forms,
 * CSV files and the server agree. Safe in the browser and on the server.
 */

export interface TimeZoneReading {
  /** The value as the upstream sent it. */
  raw: string;
  /** The zone to compute with: an IANA name this runtime knows, a fixed "+05:30" offset, or "UTC". */
  zone: string;
  /** How to name the zone next to a date. */
  label: string;
  /** The zone was read out of an odd value: an IANA name inside it, or its GMT offset. */
  recovered: boolean;
  /** Wall-clock times typed by the user land where the store means them (no guessed offset, no UTC fallback). */
  certain: boolean;
  /** Shown next to dates whenever the zone used is not the store's value as sent. */
  fallbackNote?: string;
}

interface CurrencyReading {
  raw: string | null;
  /** An ISO 4217 code Intl formats, or null. */
  code: string | null;
  /** Minor digits: the currency's own, or two when it is not recognised. */
  decimals: number;
  /** Written after amounts when the code is not recognised (shortened), else "". */
  suffix: string;
  /** Shown next to amounts when they are not formatted in a recognised currency. */
  fallbackNote?: string;
}

/** At most `max` characters, on one line; whole characters, so that an emoji is never cut in half. */
function shorten(value: string, max: number): string {
  const characters = Array.from(value.replace(/\s+/g, " ").trim());
  return characters.length > max ? `${characters.slice(0, max - 1).join("")}…` : characters.join("");
}

/** A value quoted in a note: shortened, on one line. */
export function quoteValue(value: string, max = 80): string {
  return `'${shorten(value, max)}'`;
}

function memo<T>(compute: (raw: string) => T): (raw: string) => T {
  const cache = new Map<string, T>();
  return (raw) => {
    let value = cache.get(raw);
    if (value === undefined) {
      if (cache.size >= 500) cache.clear();
      cache.set(raw, (value = compute(raw)));
    }
    return value;
  };
}

const IANA_INSIDE = /[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)+/g;
const OFFSET_INSIDE = /(?:GMT|UTC)\s*([+\-\u2212])\s*(\d{1,2})(?::?(\d{2}))?/i;
const ONLY_OFFSET = /^\(?\s*(?:GMT|UTC)?\s*([+\-\u2212])\s*(\d{1,2})(?::?(\d{2}))?\s*\)?$/i;

function offsetLabel(zone: string): string {
  return zone === "UTC" ? "UTC" : `UTC${zone.replace("-", "\u2212")}`;
}

function offsetOf(match: RegExpExecArray | null): string | null {
  if (!match) return null;
  const minutes = Number(match[2]) * 60 + Number(match[3] ?? 0);
  const zone = fixedOffsetZone(match[1] === "+" ? minutes : -minutes);
  if (fixedOffsetMs(zone) === null) return null;
  return minutes === 0 ? "UTC" : zone;
}

const readTimeZone = memo((raw: string): TimeZoneReading => {
  const value = raw.trim();
  const only = offsetOf(ONLY_OFFSET.exec(value));
  if (only) return { raw, zone: only, label: offsetLabel(only), recovered: false, certain: true };
  if (value && isValidTimeZone(value)) return { raw, zone: value, label: value, recovered: false, certain: true };

  const named = [...value.matchAll(IANA_INSIDE)].map((match) => match[0]).find((name) => isValidTimeZone(name));
  if (named) {
    return {
      raw,
      zone: named,
      label: named,
      recovered: true,
      certain: true,
      fallbackNote: `Times shown in ${named}, read from the store's time zone ${quoteValue(raw)}.`,
    };
  }
  const offset = offsetOf(OFFSET_INSIDE.exec(value));
  if (offset) {
    const label = offsetLabel(offset);
    return {
      raw,
      zone: offset,
      label,
      recovered: true,
      certain: false,
      fallbackNote: `Times shown at a fixed ${label}, read from the store's time zone ${quoteValue(raw)}: daylight saving time is not applied.`,
    };
  }
  return {
    raw,
    zone: "UTC",
    label: "UTC",
    recovered: false,
    certain: false,
    fallbackNote: value
      ? `Times shown in UTC: the store's time zone ${quoteValue(raw)} is not recognised.`
      : "Times shown in UTC: the store gives no time zone.",
  };
});

/**
 * A store's time zone as used: a known name as is, else an IANA name inside the value, else a GMT offset inside it (fixed, no DST), else
 * UTC; every reading but the first carries a note.
 */
export function interpretTimeZone(raw: string | null | undefined): TimeZoneReading {
  return readTimeZone(typeof raw === "string" ? raw : "");
}

const readCurrency = memo((raw: string): CurrencyReading => {
  const value = raw.trim();
  if (!value) {
    return { raw, code: null, decimals: 2, suffix: "", fallbackNote: "Amounts shown with two decimals: the store gives no currency." };
  }
  try {
    const format = new Intl.NumberFormat("en", { style: "currency", currency: value });
    return { raw, code: value.toUpperCase(), decimals: format.resolvedOptions().maximumFractionDigits ?? 2, suffix: "" };
  } catch {
    return {
      raw,
      code: null,
      decimals: 2,
      suffix: shorten(value, 12),
      fallbackNote: `Amounts shown with two decimals: the currency ${quoteValue(raw)} is not recognised.`,
    };
  }
});

/** A currency as the dashboard formats it: a code Intl knows, or the raw value (or nothing) with two decimals. */
export function interpretCurrency(raw: string | null | undefined): CurrencyReading {
  return raw === null || raw === undefined ? { ...readCurrency(""), raw: null } : readCurrency(raw);
}

/** The channels the contract names by example, always offered as filters; any other is shown as it is. */
export const KNOWN_CHANNELS = ["facebook", "google", "tiktok", "linkedin", "pinterest", "snapchat", "email", "organic"] as const;

/** An enum-like value shown as it is; only an empty one needs words. */
export function enumLabel(value: string): string {
  return value.trim() ? value : "(empty)";
}

type Tone = "neutral" | "good" | "info";

/** ACTIVE reads as good; every other status, named by the contract or not, in the neutral style. */
export function statusTone(status: string): Tone {
  return status === "ACTIVE" ? "good" : "neutral";
}

const KNOWN_STORE_TYPES = ["shopify", "woocommerce"];

/** A store platform kind the dashboard knows is highlighted; any other is shown in the neutral style. */
export function storeTypeTone(type: string): Tone {
  return KNOWN_STORE_TYPES.includes(type) ? "info" : "neutral";
}
