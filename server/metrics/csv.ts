import type { MetricsFilters } from "@/shared/schemas/product-metrics-view";

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

export interface ExportDescription {
  storeUrl: string;
  filters: MetricsFilters;
  /** The store's time zone and currency as the upstream gives them; read here as the page reads them. */
  timeZone: string;
  currency: string | null;
  kind: "products" | "rows";
}

function filterList(filters: MetricsFilters): string[] {
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
  return active.length > 0 ? active : ["none"];
}

export function csvFileName(description: ExportDescription): string {
  const source = description.filters.dimension_source ?? "conversion";
  const store = description.storeUrl.replace(/[^a-zA-Z0-9.-]+/g, "-");
  const filtered = filterList(description.filters)[0] === "none" ? "" : "_filtered";
  return `${description.kind}_${store}_${description.filters.startDate}_${description.filters.endDate}_${source}${filtered}.csv`;
}
