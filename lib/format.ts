/** Formatting in the user's locale, in the store's currency and time zone. */

const LOCALE = undefined; // the browser's (or server's) locale

export function formatCurrency(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat(LOCALE, { style: "currency", currency }).format(amount);
  } catch {
    // An unknown currency code: show the number with the code rather than fail.
    return `${new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 2 }).format(amount)} ${currency}`;
  }
}

/** How many minor digits a currency has (JPY 0, USD 2, KWD 3). */
export function currencyDecimals(currency: string): number {
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

export function formatNumber(value: number, maximumFractionDigits = 0): string {
  return new Intl.NumberFormat(LOCALE, { maximumFractionDigits }).format(value);
}

export function formatPercent(value: number, maximumFractionDigits = 1): string {
  return new Intl.NumberFormat(LOCALE, { style: "percent", maximumFractionDigits }).format(value);
}

function validTimeZone(timeZone: string | undefined): string | undefined {
  if (!timeZone) return undefined;
  try {
    new Intl.DateTimeFormat("en", { timeZone });
    return timeZone;
  } catch {
    return undefined;
  }
}

/** A timestamp as a readable date and time; text that is not a date is shown as it is. */
export function formatDateTime(value: string | number | Date, timeZone?: string): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return new Intl.DateTimeFormat(LOCALE, { dateStyle: "medium", timeStyle: "short", timeZone: validTimeZone(timeZone) }).format(date);
}

export function formatDate(value: string | number | Date, timeZone?: string): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return new Intl.DateTimeFormat(LOCALE, { dateStyle: "medium", timeZone: validTimeZone(timeZone) }).format(date);
}
