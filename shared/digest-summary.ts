import { formatCountry, formatDate } from "@/shared/format";
import { comparisonRange, presetLabels, type DateRange } from "@/shared/metrics/date-range";
import { dateRangeOf, listFilters, parseViewState } from "@/shared/metrics/view-state";
import { enumLabel } from "@/shared/store-locale";

/** What a digest shows, in words: the same sentences in its e-mail, the Outbox and Send now's confirmation. */
export interface DigestSummary {
  /** "Country: Canada (CA) · credit to the conversion" */
  filters: string;
  /** "Last 30 days: Oct 28, 2026 – Nov 26, 2026 (America/Toronto)" */
  range: string;
  /** "compared with the previous period: Sep 28, 2026 – Oct 27, 2026" */
  comparison: string;
}

const ATTRIBUTION = { conversion: "credit to the conversion", first_touch: "credit to the first touch" } as const;

const plural = (label: string) => (label.endsWith("y") ? `${label.slice(0, -1)}ies` : `${label}s`);
const day = (date: string) => formatDate(`${date}T12:00:00Z`, "UTC");
const span = (range: DateRange) => `${day(range.startDate)} – ${day(range.endDate)}`;

/** A saved view's query as a digest sends it: its range in the store's zone, and one comparison (its own, else the prior period). */
export function digestSummary(search: string, timeZone: string, now: Date): DigestSummary {
  const { state } = parseViewState(new URLSearchParams(search));
  const parts: string[] = [];
  if (state.channel) parts.push(`Channel: ${enumLabel(state.channel)}`);
  if (state.adId) parts.push(`Ad: ${state.adId}`);
  for (const filter of listFilters) {
    const values = state[filter.key];
    if (values.length === 0) continue;
    const shown = filter.key === "countries" ? values.map(formatCountry) : values;
    parts.push(`${values.length > 1 ? plural(filter.label) : filter.label}: ${shown.join(", ")}`);
  }
  if (parts.length === 0) parts.push("All orders (no filter)");
  parts.push(ATTRIBUTION[state.source === "first_touch" ? "first_touch" : "conversion"]);
  const range = dateRangeOf(state, timeZone, now);
  const { named, mode, against } = rangeWords(state);
  return {
    filters: parts.join(" · "),
    range: `${named}: ${span(range)} (${timeZone})`,
    comparison: `${against}: ${span(comparisonRange(range, mode))}`,
  };
}

function rangeWords(state: ReturnType<typeof parseViewState>["state"]) {
  const mode = state.compare === "year" ? "year" : "previous";
  const against = `compared with ${mode === "year" ? "the same weekdays 52 weeks earlier" : "the period just before"}`;
  return { named: state.range === "custom" ? "Custom range" : presetLabels[state.range], mode, against } as const;
}

/** A digest of several stores in words: its range, which each store reads in its own zone, and its comparison. */
export function portfolioSummary(search: string): { range: string; comparison: string } {
  const { state } = parseViewState(new URLSearchParams(search));
  const { named, against } = rangeWords(state);
  const dates = state.range === "custom" ? ` (${span({ startDate: state.from!, endDate: state.to! })})` : "";
  return { range: `${named}${dates}, each store's own days in its own time zone`, comparison: against };
}

/** The summary as one line (Send now's confirmation, the plain-text e-mail). */
export const summaryLine = (summary: Omit<DigestSummary, "filters"> & { filters?: string }) =>
  `${summary.filters ? `${summary.filters}. ` : ""}${summary.range}, ${summary.comparison}.`;
