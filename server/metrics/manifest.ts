import "server-only";
import { interpretCurrency, interpretTimeZone } from "@/shared/store-locale";
import { zonedLocalToEpochMs } from "@/shared/time-zone";
import type { ExportManifestBase, StoreManifestPart } from "@/shared/schemas/export-manifest";
import type { ExportDescription } from "./csv";

const DAY_MS = 86_400_000;

const nextDate = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);

/** The instant a store-local day starts; a zone whose clocks skip midnight starts it at the first hour that exists. */
function dayStart(date: string, zone: string): number {
  for (const time of ["00:00", "01:00", "02:00"]) {
    const instant = zonedLocalToEpochMs(`${date}T${time}`, zone);
    if (instant !== null) return instant;
  }
  return Date.parse(`${date}T00:00:00Z`);
}

/** The range's exact UTC bounds in the store's zone, and the days of 23 or 25 hours in it. */
export function rangeInZone(startDate: string, endDate: string, zone: string): ExportManifestBase["range"] {
  const irregular: { date: string; hours: number }[] = [];
  let days = 0;
  let date = startDate;
  let start = dayStart(date, zone);
  const first = start;
  while (date <= endDate) {
    const next = nextDate(date);
    const end = dayStart(next, zone);
    const hours = (end - start) / 3_600_000;
    if (hours !== 24) irregular.push({ date, hours });
    days++;
    [date, start] = [next, end];
  }
  return {
    start_date: startDate,
    end_date: endDate,
    utc_start: new Date(first).toISOString(),
    utc_end_exclusive: new Date(start).toISOString(),
    days,
    irregular_days: irregular,
  };
}

/** A store's part of a manifest: its currency and zone as given and as read, and the range's exact bounds in that zone. */
export function storeManifestPart(description: Omit<ExportDescription, "kind">): StoreManifestPart {
  const zone = interpretTimeZone(description.timeZone);
  const currency = interpretCurrency(description.currency);
  return {
    store_url: description.storeUrl,
    currency: {
      store_value: description.currency,
      used: currency.code ?? (currency.raw?.trim() || "none"),
      ...(currency.fallbackNote ? { note: currency.fallbackNote } : {}),
    },
    time_zone: { store_value: description.timeZone, used: zone.label, ...(zone.fallbackNote ? { note: zone.fallbackNote } : {}) },
    range: rangeInZone(description.filters.startDate, description.filters.endDate, zone.zone),
  };
}

/** Everything the manifest says that the server knows before the file reaches the browser. */
export function manifestBase(
  description: ExportDescription,
  request: { endpoint: string; parameters: Record<string, string> },
  version: string,
  now: Date = new Date(),
): ExportManifestBase {
  const { store_url, ...store } = storeManifestPart(description);
  return {
    manifest_version: 1,
    kind: description.kind,
    store_url,
    endpoint: request.endpoint,
    parameters: request.parameters,
    dimension_source: description.filters.dimension_source ?? "conversion",
    ...store,
    annotations: [],
    dashboard_version: version,
    exported_at: now.toISOString(),
  };
}
