import { interpretCurrency, interpretTimeZone } from "./store-locale";
import { intlZone } from "./time-zone";

/** Formatting in the user's locale, in the store's currency and time zone. */

const LOCALE = undefined; // the browser's (or server's) locale

/**
 * Intl formatters are costly to build (tens of microseconds each) and a page formats
 * thousands of values: each distinct set of options is built once.
 */
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

/**
 * An amount in a currency as the store names it (see `interpretCurrency`): in a code Intl
 * knows, its own format; otherwise two decimals and the raw value, or no code at all.
 */
export function formatCurrency(amount: number, currency: string | null | undefined): string {
  const reading = interpretCurrency(currency);
  if (reading.code) return numberFormat({ style: "currency", currency: reading.code }).format(amount);
  const number = numberFormat({ minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(amount);
  return reading.suffix ? `${number} ${reading.suffix}` : number;
}

/** How many minor digits a currency has (JPY 0, USD 2, KWD 3; two when it is not recognised). */
export function currencyDecimals(currency: string | null | undefined): number {
  return interpretCurrency(currency).decimals;
}

export function formatNumber(value: number, maximumFractionDigits = 0): string {
  return numberFormat({ maximumFractionDigits }).format(value);
}

export function formatCompact(value: number): string {
  return numberFormat({ notation: "compact" }).format(value);
}

export function formatPercent(value: number, maximumFractionDigits = 1): string {
  return numberFormat({ style: "percent", maximumFractionDigits }).format(value);
}

/**
 * A date in the store's zone as `interpretTimeZone` reads it (a fixed offset is applied by
 * shifting the instant and showing it in UTC); without a zone, in the reader's own.
 */
function formatIn(value: string | number | Date, timeZone: string | undefined, options: Intl.DateTimeFormatOptions): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  if (timeZone === undefined) return dateFormat(options).format(date);
  const zone = intlZone(interpretTimeZone(timeZone).zone);
  const shifted = new Date(date.getTime() + zone.shiftMs);
  if (Number.isNaN(shifted.getTime())) return String(value);
  return dateFormat({ ...options, timeZone: zone.timeZone }).format(shifted);
}

/** A timestamp as a readable date and time; text that is not a date is shown as it is. */
export function formatDateTime(value: string | number | Date, timeZone?: string): string {
  return formatIn(value, timeZone, { dateStyle: "medium", timeStyle: "short" });
}

export function formatDate(value: string | number | Date, timeZone?: string): string {
  return formatIn(value, timeZone, { dateStyle: "medium" });
}

export function formatMonth(value: string | number | Date, timeZone?: string): string {
  return formatIn(value, timeZone, { month: "long", year: "numeric" });
}
