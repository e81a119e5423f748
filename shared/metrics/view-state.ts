import { z } from "zod";
import { isoDateSchema } from "@/shared/schemas/common";
import type { DimensionSource } from "@/shared/schemas/product-metrics";
import type { MetricsFilters } from "@/shared/schemas/product-metrics-view";
import { presets, resolvePreset, type DateRange, type Preset } from "./date-range";

/** The product-metrics page keeps all its state in the URL (links, reload, back and forward); this module reads and writes it. */

export const sortColumns = ["name", "orders", "units", "revenue", "averagePrice", "revenuePerOrder", "share"] as const;
export type SortColumn = (typeof sortColumns)[number];
type SourceView = DimensionSource | "both";

export interface ViewState {
  range: Preset | "custom";
  from?: string;
  to?: string;
  /** "both": the previous period and the same weekdays a year earlier, each with its own change. */
  compare: "off" | "previous" | "year" | "both";
  channel?: string;
  adId?: string;
  countries: string[];
  devices: string[];
  os: string[];
  browsers: string[];
  products: string[];
  source: SourceView;
  /** Unset: follows the range (see `autoGranularity`). */
  granularity?: "day" | "week" | "month";
  sort: SortColumn;
  direction: "asc" | "desc";
  q: string;
  page: number;
}

export const defaultViewState: ViewState = {
  range: "last30",
  compare: "previous",
  countries: [],
  devices: [],
  os: [],
  browsers: [],
  products: [],
  source: "conversion",
  sort: "revenue",
  direction: "desc",
  q: "",
  page: 1,
};

/** The multi-value filters: their URL names and their upstream parameters. */
export const listFilters = [
  { key: "countries", param: "country", upstream: "filterCountry", label: "Country", dimension: "countries" },
  { key: "devices", param: "device", upstream: "filterDeviceType", label: "Device type", dimension: "deviceTypes" },
  { key: "os", param: "os", upstream: "filterOS", label: "Operating system", dimension: "os" },
  { key: "browsers", param: "browser", upstream: "filterBrowser", label: "Browser", dimension: "browsers" },
  { key: "products", param: "product", upstream: "filterProductId", label: "Product", dimension: "productIds" },
] as const;

const text = z.string().trim().min(1).max(200);

/** Each parameter's schema, described by its name in words for the problems the page shows. */
const fields = {
  range: z.enum([...presets, "custom"]).describe("date range"),
  from: isoDateSchema.describe("start date"),
  to: isoDateSchema.describe("end date"),
  compare: z.enum(["off", "previous", "year", "both"]).describe("comparison"),
  channel: text.describe("channel"),
  ad: text.describe("ad ID"),
  source: z.enum(["conversion", "first_touch", "both"]).describe("attribution"),
  granularity: z.enum(["day", "week", "month"]).describe("granularity"),
  sort: z.enum(sortColumns).describe("sort column"),
  direction: z.enum(["asc", "desc"]).describe("sort direction"),
  q: z.string().max(200).describe("search"),
  page: z.coerce.number().int().min(1).max(100_000).describe("page"),
};

/** Reads the view from the URL; a value that does not parse is dropped, with a problem in words for the page to show. */
export function parseViewState(params: URLSearchParams): { state: ViewState; problems: string[] } {
  const state: ViewState = { ...defaultViewState, countries: [], devices: [], os: [], browsers: [], products: [] };
  const problems: string[] = [];
  const read = <K extends keyof typeof fields>(name: K): z.infer<(typeof fields)[K]> | undefined => {
    const raw = params.get(name);
    if (raw === null || raw === "") return undefined;
    const parsed = fields[name].safeParse(raw);
    if (parsed.success) return parsed.data as z.infer<(typeof fields)[K]>;
    problems.push(`the ${fields[name].description} "${raw.slice(0, 40)}" was not understood`);
    return undefined;
  };
  state.range = read("range") ?? state.range;
  state.from = read("from");
  state.to = read("to");
  state.compare = read("compare") ?? state.compare;
  state.channel = read("channel");
  state.adId = read("ad");
  state.source = read("source") ?? state.source;
  state.granularity = read("granularity");
  state.sort = read("sort") ?? state.sort;
  state.direction = read("direction") ?? state.direction;
  state.q = read("q") ?? "";
  state.page = read("page") ?? 1;
  for (const filter of listFilters) {
    const raw = params.get(filter.param);
    if (!raw) continue;
    const items = raw.split(",").map((item) => item.trim());
    const valid = items.filter((item) => text.safeParse(item).success);
    if (valid.length !== items.length) problems.push(`an empty or overlong ${filter.label.toLowerCase()} was dropped`);
    state[filter.key] = [...new Set(valid)];
  }
  if (state.range === "custom") {
    if (!state.from || !state.to) {
      problems.push("a custom range needs both a start and an end date");
      Object.assign(state, { range: defaultViewState.range, from: undefined, to: undefined });
    } else if (state.from > state.to) {
      problems.push("the start date was after the end date, so they were swapped");
      [state.from, state.to] = [state.to, state.from];
    }
  } else {
    state.from = undefined;
    state.to = undefined;
  }
  return { state, problems };
}

/** The URL of a view: only what differs from the defaults, in a stable order. */
export function toSearchParams(state: ViewState): URLSearchParams {
  const params = new URLSearchParams();
  const put = (name: string, value: string | number | undefined, fallback?: string | number) => {
    if (value !== undefined && value !== "" && value !== fallback) params.set(name, String(value));
  };
  put("range", state.range, defaultViewState.range);
  if (state.range === "custom") {
    put("from", state.from);
    put("to", state.to);
  }
  put("compare", state.compare, defaultViewState.compare);
  put("channel", state.channel);
  put("ad", state.adId);
  for (const filter of listFilters) put(filter.param, state[filter.key].join(","));
  put("source", state.source, defaultViewState.source);
  put("granularity", state.granularity);
  put("sort", state.sort, defaultViewState.sort);
  put("direction", state.direction, defaultViewState.direction);
  put("q", state.q);
  put("page", state.page, 1);
  return params;
}

export function dateRangeOf(state: ViewState, timeZone: string, now?: Date): DateRange {
  if (state.range === "custom" && state.from && state.to) return { startDate: state.from, endDate: state.to };
  return resolvePreset(state.range === "custom" ? (defaultViewState.range as Preset) : state.range, timeZone, now);
}

/** The upstream query of a view, for one attribution source. */
export function filtersOf(state: ViewState, range: DateRange, source: DimensionSource): MetricsFilters {
  const filters: MetricsFilters = {
    ...range,
    channel: state.channel,
    adId: state.adId,
    dimension_source: source === "conversion" ? undefined : source,
  };
  for (const filter of listFilters) {
    if (state[filter.key].length > 0) filters[filter.upstream] = state[filter.key].join(",");
  }
  return filters;
}
