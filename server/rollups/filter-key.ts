import { createHash } from "node:crypto";
import type { MetricsFilters } from "@/shared/schemas/product-metrics-view";

/**
 * The filters the upstream applies to rows and the rows do not carry (country, device type,
 * OS, browser), and the ad: the rollups keep a view with any of them under its own key, read
 * with exactly these filters. Channel and product are not part of the key: the key's cells
 * answer them, as the unfiltered key's do.
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

/** The characters that separate a key's parts and values are escaped, so two filters never share a key. */
const escape = (value: string) => value.replace(/[%;=,]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

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

/**
 * Longer keys are kept as their digest: every day and cell row repeats its key, and a primary
 * key's entry in PostgreSQL must stay under about 2,700 bytes (the lists may be 4,000 characters each).
 */
const MAX_KEY_LENGTH = 200;

/**
 * The rollups' key of a view's row filters: '' without any (the unfiltered read), otherwise
 * e.g. `country=DE,FR;device=mobile;ad=123`, or `sha256:` and the hex digest of that text when
 * it is longer than MAX_KEY_LENGTH.
 */
export function filterKeyOf(filters: MetricsFilters): string {
  const canonical = upstreamRowFilters(filters);
  const parts: string[] = [];
  for (const [name, field] of PARTS) {
    const values = canonical[field];
    if (values) parts.push(`${name}=${values.split(",").map(escape).join(",")}`);
  }
  if (canonical.adId) parts.push(`ad=${escape(canonical.adId)}`);
  const key = parts.join(";");
  return key.length > MAX_KEY_LENGTH ? `sha256:${createHash("sha256").update(key).digest("hex")}` : key;
}
