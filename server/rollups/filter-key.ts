import type { MetricsFilters } from "@/shared/schemas/product-metrics-view";

/**
 * The filters the upstream applies to rows and the rows do not carry (country, device type,
 * OS, browser), and the ad: a view with any of them reads the upstream, as with ROLLUPS=off;
 * an alert check sends them as they are here.
 */
export type UpstreamRowFilters = Pick<MetricsFilters, "filterCountry" | "filterDeviceType" | "filterOS" | "filterBrowser" | "adId">;

/** The key's parts, in the key's order, with the short name each has in it. */
const PARTS = [
  ["country", "filterCountry"],
  ["device", "filterDeviceType"],
  ["os", "filterOS"],
  ["browser", "filterBrowser"],
] as const;

/** A comma list as a set: trimmed, without empty items or repeats, sorted by code point. */
const setOf = (list: string | undefined) =>
  list === undefined ? [] : [...new Set(list.split(",").map((item) => item.trim()))].filter(Boolean).sort();

/**
 * The row filters as the rollups send them upstream: each list as a set (trimmed, deduplicated,
 * sorted), so every view with the same filters reads the same rows whatever order it named them.
 */
export function upstreamRowFilters(filters: MetricsFilters): UpstreamRowFilters {
  const canonical: UpstreamRowFilters = {};
  for (const [, field] of PARTS) {
    const values = setOf(filters[field]);
    if (values.length > 0) canonical[field] = values.join(",");
  }
  // One ad ID, as named: the upstream matches it whole.
  if (filters.adId !== undefined) canonical.adId = filters.adId;
  return canonical;
}
