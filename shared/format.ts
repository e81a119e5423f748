import { interpretCurrency, interpretTimeZone } from "./store-locale";
import { intlZone } from "./time-zone";

/** Formatting in the user's locale, in the store's currency and time zone. */

const LOCALE = undefined; // the browser's (or server's) locale

/** Intl formatters are costly to build and a page formats thousands of values: one per distinct set of options. */
const numberFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

function numberFormat(options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = JSON.stringify(options);
  let format = numberFormats.get(key);
  if (!format) numberFormats.set(key, (format = new Intl.NumberFormat(LOCALE, options)));
  return format;
}

function dateFormat(options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = JSON.stringify(options);
  let format = dateFormats.get(key);
  if (!format) dateFormats.set(key, (format = new Intl.DateTimeFormat(LOCALE, options)));
  return format;
}

/** The true minus sign (U+2212): a hyphen beside a minus reads as two different things. */
export const MINUS = "\u2212";

/** Every number goes here: a true minus, no sign on values rounding to zero (never "-0%"); `signed` adds "+" above zero. */
function render(format: Intl.NumberFormat, value: number): string {
  return format
    .formatToParts(value)
    .map((part) => (part.type === "minusSign" ? MINUS : part.value))
    .join("");
}

function numberFormatSigned(options: Intl.NumberFormatOptions, signed: boolean): Intl.NumberFormat {
  return numberFormat({ ...options, signDisplay: signed ? "exceptZero" : "negative" });
}

/** An amount in the store's currency: a code Intl knows in its own format, otherwise two decimals and the raw code (or none). */
export function formatCurrency(amount: number, currency: string | null | undefined, signed = false): string {
  const reading = interpretCurrency(currency);
  if (reading.code) return render(numberFormatSigned({ style: "currency", currency: reading.code }, signed), amount);
  const number = render(numberFormatSigned({ minimumFractionDigits: 2, maximumFractionDigits: 2 }, signed), amount);
  return reading.suffix ? `${number} ${reading.suffix}` : number;
}

/** How many minor digits a currency has (JPY 0, USD 2, KWD 3; two when it is not recognised). */
export function currencyDecimals(currency: string | null | undefined): number {
  return interpretCurrency(currency).decimals;
}

/** A count or a ratio with exactly `digits` decimals, so values of one measure line up ("1.20" beside "1.22"). */
export function formatNumber(value: number, digits = 0, signed = false): string {
  return render(numberFormatSigned({ minimumFractionDigits: digits, maximumFractionDigits: digits }, signed), value);
}

/** A short value for an axis or a tile: three significant digits, so 22,500 reads 22.5K and not 23K (Intl's default keeps two). */
export function formatCompact(value: number): string {
  return render(numberFormatSigned({ notation: "compact", maximumSignificantDigits: 3 }, false), value);
}

/** An axis value: compact to three significant digits, in the store's currency when Intl knows it ("$22.5K", "¥1.2M"). */
export function formatCompactCurrency(value: number, currency: string | null | undefined): string {
  const reading = interpretCurrency(currency);
  return reading.code
    ? render(
        numberFormatSigned({ style: "currency", currency: reading.code, notation: "compact", maximumSignificantDigits: 3 }, false),
        value,
      )
    : formatCompact(value);
}

/** A share or a change, always with the same decimals ("24.0%" beside "25.8%"). */
export function formatPercent(value: number, digits = 1, signed = false): string {
  return render(numberFormatSigned({ style: "percent", minimumFractionDigits: digits, maximumFractionDigits: digits }, signed), value);
}

let regionNames: Intl.DisplayNames | null | undefined;

/** A country code as its name in the reader's language with the code beside ("Germany (DE)"); an unknown code as it is. */
export function formatCountry(code: string): string {
  const upper = code.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(upper)) return code;
  if (regionNames === undefined) {
    try {
      regionNames = new Intl.DisplayNames(LOCALE, { type: "region", fallback: "none" });
    } catch {
      regionNames = null; // a runtime without region names: the code alone still says it
    }
  }
  const name = regionNames?.of(upper);
  return name && name !== upper ? `${name} (${upper})` : code;
}

/** A date in the store's zone (a fixed offset shifts the instant, shown in UTC); without a zone, in the reader's own. */
function formatIn(value: string | number | Date, timeZone: string | undefined, options: Intl.DateTimeFormatOptions): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  if (timeZone === undefined) return dateFormat(options).format(date);
  const reading = interpretTimeZone(timeZone);
  const zone = intlZone(reading.zone);
  const shifted = new Date(date.getTime() + zone.shiftMs);
  if (Number.isNaN(shifted.getTime())) return String(value);
  const format = dateFormat({ ...options, timeZone: zone.timeZone });
  if (!options.timeZoneName || zone.shiftMs === 0) return format.format(shifted);
  // A fixed offset is shown in UTC after shifting: it is named by its own offset, not "UTC".
  return format.format(shifted).replace(/UTC$/, reading.label);
}

/** The one date-and-time format of the dashboard: "Nov 28, 2026, 9:57 PM EST", its zone always named. */
const DATE_TIME: Intl.DateTimeFormatOptions = {
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZoneName: "short",
};

/**
 * A store's event (an action, a run, an alert, an export, a data change) in the store's
 * zone, named: "Nov 28, 2026, 9:57 PM EST". A store without a zone it gives shows UTC, named.
 * Text that is not a date is shown as it is.
 */
export function formatDateTime(value: string | number | Date, storeTimeZone: string | null | undefined): string {
  return formatIn(value, storeTimeZone ?? "UTC", DATE_TIME);
}

/**
 * A person's own event (a sign-in, a grant, a saved view) in the reader's own zone, named and
 * said to be theirs: "Nov 29, 2026, 2:57 AM GMT+1 (your time)".
 */
export function formatYourDateTime(value: string | number | Date): string {
  const text = formatIn(value, undefined, DATE_TIME);
  return text === String(value) ? text : `${text} (your time)`;
}

export function formatDate(value: string | number | Date, timeZone?: string): string {
  return formatIn(value, timeZone, { dateStyle: "medium" });
}

export function formatMonth(value: string | number | Date, timeZone?: string): string {
  return formatIn(value, timeZone, { month: "long", year: "numeric" });
}

const RELATIVE_STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["second", 60],
  ["minute", 60],
  ["hour", 24],
  ["day", 30],
  ["month", 12],
  ["year", Infinity],
];
let relativeFormat: Intl.RelativeTimeFormat | undefined;

/** How long ago (or from now) an instant is, in the largest whole unit: "3 hours ago", "in 2 days". */
export function formatRelative(value: string | number | Date, now: number = Date.now()): string {
  const time = (value instanceof Date ? value : new Date(value)).getTime();
  if (Number.isNaN(time)) return String(value);
  relativeFormat ??= new Intl.RelativeTimeFormat(LOCALE, { numeric: "auto" });
  let amount = (time - now) / 1000;
  for (const [unit, size] of RELATIVE_STEPS) {
    if (Math.abs(amount) < size) return relativeFormat.format(Math.trunc(amount), unit);
    amount /= size;
  }
  return String(value);
}
