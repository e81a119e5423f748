/** Formatting in the user's locale, in the store's currency and time zone. */

const LOCALE = undefined; // the browser's (or server's) locale

/**
 * Intl formatters are costly to build (tens of microseconds each) and a page formats
 * thousands of values: each distinct set of options is built once.
 */
const numberFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

function numberFormat(options: Intl.NumberFormatOptions, locale: string | undefined = LOCALE): Intl.NumberFormat {
  const key = `${locale ?? ""}${JSON.stringify(options)}`;
  let format = numberFormats.get(key);
  if (!format) numberFormats.set(key, (format = new Intl.NumberFormat(locale, options)));
  return format;
}

function dateFormat(options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = JSON.stringify(options);
  let format = dateFormats.get(key);
  if (!format) dateFormats.set(key, (format = new Intl.DateTimeFormat(LOCALE, options)));
  return format;
}

export function formatCurrency(amount: number, currency: string): string {
  try {
    return numberFormat({ style: "currency", currency }).format(amount);
  } catch {
    // An unknown currency code: show the number with the code rather than fail.
    return `${numberFormat({ maximumFractionDigits: 2 }).format(amount)} ${currency}`;
  }
}

/** How many minor digits a currency has (JPY 0, USD 2, KWD 3). */
export function currencyDecimals(currency: string): number {
  try {
    return numberFormat({ style: "currency", currency }, "en").resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
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

function validTimeZone(timeZone: string | undefined): string | undefined {
  if (!timeZone) return undefined;
  try {
    dateFormat({ timeZone });
    return timeZone;
  } catch {
    return undefined;
  }
}

/** A timestamp as a readable date and time; text that is not a date is shown as it is. */
export function formatDateTime(value: string | number | Date, timeZone?: string): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return dateFormat({ dateStyle: "medium", timeStyle: "short", timeZone: validTimeZone(timeZone) }).format(date);
}

export function formatDate(value: string | number | Date, timeZone?: string): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return dateFormat({ dateStyle: "medium", timeZone: validTimeZone(timeZone) }).format(date);
}

export function formatMonth(value: string | number | Date, timeZone?: string): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return dateFormat({ month: "long", year: "numeric", timeZone: validTimeZone(timeZone) }).format(date);
}
