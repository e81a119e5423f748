import { currencyDecimals } from "@/shared/format";
import { relativeChange } from "@/shared/metrics/presentation";
import { defaultViewState, parseViewState, toSearchParams, type ViewState } from "@/shared/metrics/view-state";
import type { PortfolioRow, PortfolioStore } from "@/shared/schemas/portfolio";

/** The columns of the All stores table, and "attention": the largest fall in revenue first. */
export const portfolioSorts = [
  "name",
  "currency",
  "revenue",
  "orders",
  "units",
  "aov",
  "topChannel",
  "openAlerts",
  "asOf",
  "attention",
] as const;
export type PortfolioSort = (typeof portfolioSorts)[number];
type Direction = "asc" | "desc";

/** What the page keeps in its URL: the range and comparison as Product metrics writes them, and the sort. */
export interface PortfolioState {
  range: ViewState["range"];
  from?: string;
  to?: string;
  compare: "off" | "previous" | "year";
  sort: PortfolioSort;
  direction: Direction;
}

/** Text sorts A to Z and "attention" from the largest fall; figures largest first. */
export const firstDirection = (sort: PortfolioSort): Direction =>
  ["name", "currency", "topChannel", "attention"].includes(sort) ? "asc" : "desc";

export function parsePortfolioState(params: URLSearchParams): { state: PortfolioState; problems: string[] } {
  const view = new URLSearchParams(params);
  if (!view.get("range")) view.set("range", "last7");
  const parsed = parseViewState(view);
  const problems = parsed.problems.filter((problem) => !problem.includes("sort"));
  const { range, from, to } = parsed.state;
  let compare = parsed.state.compare;
  if (compare === "both") {
    problems.push("a comparison with two periods is not offered here, so the previous period is used");
    compare = "previous";
  }
  const rawSort = params.get("sort");
  // It opens on what needs attention first, the reason to start the day here.
  const sort = portfolioSorts.find((candidate) => candidate === rawSort) ?? "attention";
  if (rawSort && sort !== rawSort) problems.push(`the sort column "${rawSort.slice(0, 40)}" was not understood`);
  const direction = params.get("direction") === "asc" ? "asc" : params.get("direction") === "desc" ? "desc" : firstDirection(sort);
  return { state: { range, from, to, compare, sort, direction }, problems };
}

/** The range and comparison as Product metrics reads them: a row's link, and a portfolio digest's settings. */
export const viewSearch = ({ range, from, to, compare }: PortfolioState) =>
  toSearchParams({ ...defaultViewState, range, from, to, compare }).toString();

export function portfolioSearch(state: PortfolioState): string {
  const params = new URLSearchParams({ range: state.range, ...(state.range === "custom" ? { from: state.from!, to: state.to! } : {}) });
  if (state.compare !== "previous") params.set("compare", state.compare);
  if (state.sort !== "attention") params.set("sort", state.sort);
  if (state.direction !== firstDirection(state.sort)) params.set("direction", state.direction);
  return params.toString();
}

/** The API's query for the page's range: a preset is resolved by the server in each store's own zone. */
export function portfolioQueryOf(state: PortfolioState): Record<string, string> {
  const range: Record<string, string> = state.range === "custom" ? { startDate: state.from!, endDate: state.to! } : { range: state.range };
  return { ...range, compare: state.compare };
}

const revenueChange = (row: PortfolioStore) => relativeChange(row.totals.revenue, row.previous?.revenue);

function sortValue(row: PortfolioStore, sort: PortfolioSort): string | number | null {
  switch (sort) {
    case "name":
      return row.name.toLowerCase();
    case "currency":
      return `${row.currency} ${row.timeZone}`;
    case "topChannel":
      return row.topChannel;
    case "attention":
      return revenueChange(row);
    case "openAlerts":
    case "asOf":
      return row[sort];
    default:
      return row.totals[sort];
  }
}

/** Rows in table order; stores without figures go last (first under "attention"). Currencies compare as numbers (no conversion). */
export function sortPortfolio<R extends PortfolioRow>(rows: readonly R[], sort: PortfolioSort, direction: Direction): R[] {
  const sign = direction === "asc" ? 1 : -1;
  const rank = (row: R) => ("error" in row ? (sort === "attention" ? -1 : 1) : 0);
  return [...rows].sort((a, b) => {
    if (rank(a) !== rank(b) || "error" in a || "error" in b) return rank(a) - rank(b) || a.storeUrl.localeCompare(b.storeUrl);
    const [x, y] = [sortValue(a, sort), sortValue(b, sort)];
    if (x === y) return a.storeUrl.localeCompare(b.storeUrl);
    if (x === null || y === null) return x === null ? 1 : -1;
    return (x < y ? -1 : 1) * sign;
  });
}

/** Revenue per currency, never converted: each total rounded to its currency's decimals. Most stores first. */
export function totalsByCurrency(rows: readonly PortfolioRow[]): Record<string, { revenue: number; stores: number }> {
  const totals = new Map<string, { revenue: number; stores: number }>();
  for (const row of rows) {
    if ("error" in row) continue;
    const total = totals.get(row.currency) ?? { revenue: 0, stores: 0 };
    totals.set(row.currency, { revenue: total.revenue + row.totals.revenue, stores: total.stores + 1 });
  }
  const ordered = [...totals].sort(([a, x], [b, y]) => y.stores - x.stores || a.localeCompare(b));
  return Object.fromEntries(
    ordered.map(([currency, total]) => [currency, { ...total, revenue: Number(total.revenue.toFixed(currencyDecimals(currency))) }]),
  );
}
