import type { MetricsFilters } from "@/lib/schemas/product-metrics-view";
import { interpretCurrency, interpretTimeZone } from "@/lib/store-locale";

/**
 * One CSV field. Text that a spreadsheet would run as a formula (=, +, -, @ in front) is
 * defused with a leading apostrophe; numbers are written as they are.
 */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(values: readonly (string | number | null | undefined)[]): string {
  return `${values.map(csvField).join(",")}\r\n`;
}

const attributionWords = {
  conversion: "conversion (credit to the touch that converted)",
  first_touch: "first_touch (credit to the first touch)",
} as const;

export interface ExportDescription {
  storeUrl: string;
  filters: MetricsFilters;
  /** The store's time zone and currency as the upstream gives them; read here as the page reads them. */
  timeZone: string;
  currency: string | null;
  kind: "products" | "rows";
}

function filterWords(filters: MetricsFilters): string {
  const named: [string, string | undefined][] = [
    ["channel", filters.channel],
    ["ad", filters.adId],
    ["country", filters.filterCountry],
    ["device", filters.filterDeviceType],
    ["os", filters.filterOS],
    ["browser", filters.filterBrowser],
    ["product", filters.filterProductId],
  ];
  const active = named.filter(([, value]) => value).map(([name, value]) => `${name}=${value}`);
  return active.length > 0 ? active.join("; ") : "none";
}

/**
 * Lines starting with "#" that record what the file holds, before the header row. The
 * zone and currency are named as the page names them, with the same notes when the
 * store's own values could not be used.
 */
export function csvPreamble(description: ExportDescription, now: Date = new Date()): string {
  const source = description.filters.dimension_source ?? "conversion";
  const zone = interpretTimeZone(description.timeZone);
  const currency = interpretCurrency(description.currency);
  return [
    `# ${description.kind === "products" ? "Product metrics by product" : "Product metric rows"}`,
    `# Store: ${description.storeUrl}`,
    `# Range: ${description.filters.startDate} to ${description.filters.endDate} (${zone.label})`,
    ...(zone.fallbackNote ? [`# Note: ${zone.fallbackNote}`] : []),
    `# Currency: ${currency.code ?? (currency.raw?.trim() || "none")}`,
    ...(currency.fallbackNote ? [`# Note: ${currency.fallbackNote}`] : []),
    `# Attribution: ${attributionWords[source]}`,
    `# Filters: ${filterWords(description.filters)}`,
    `# Exported: ${now.toISOString()}`,
  ]
    .map((text) => `${text.replace(/[\r\n]+/g, " ")}\r\n`)
    .join("");
}

export function csvFileName(description: ExportDescription): string {
  const source = description.filters.dimension_source ?? "conversion";
  const store = description.storeUrl.replace(/[^a-zA-Z0-9.-]+/g, "-");
  const filtered = filterWords(description.filters) === "none" ? "" : "_filtered";
  return `${description.kind}_${store}_${description.filters.startDate}_${description.filters.endDate}_${source}${filtered}.csv`;
}
