import { describe, expect, it } from "vitest";
import type { PortfolioRow, PortfolioStore } from "@/shared/schemas/portfolio";
import { parsePortfolioState, portfolioQueryOf, portfolioSearch, sortPortfolio, totalsByCurrency, viewSearch } from "./portfolio";

function store(storeUrl: string, currency: string, revenue: number, previous: number | null): PortfolioStore {
  const figures = (amount: number) => ({ revenue: amount, orders: 10, units: 12, aov: amount / 10 });
  return {
    type: "store",
    storeUrl,
    name: storeUrl.toUpperCase(),
    currency,
    timeZone: "UTC",
    totals: figures(revenue),
    previous: previous === null ? null : figures(previous),
    topChannel: null,
    openAlerts: 0,
    asOf: "2026-01-01T00:00:00.000Z",
    startDate: "2026-01-01",
    endDate: "2026-01-07",
    daily: [],
  };
}
const failed: PortfolioRow = { type: "store", storeUrl: "gone.example", error: { status: 401, code: "key_revoked", message: "revoked" } };
const rows: PortfolioRow[] = [
  store("a.example", "USD", 100, 200), // fell by half
  failed,
  store("b.example", "EUR", 300, 250), // rose
  store("c.example", "USD", 90, 100), // fell by a tenth
  store("d.example", "JPY", 5000, null), // no comparison
];
const order = (sorted: PortfolioRow[]) => sorted.map((row) => row.storeUrl);

describe("the All stores table", () => {
  it("sorts by any column, stores without figures last", () => {
    expect(order(sortPortfolio(rows, "revenue", "desc"))).toEqual(["d.example", "b.example", "a.example", "c.example", "gone.example"]);
    expect(order(sortPortfolio(rows, "name", "asc"))).toEqual(["a.example", "b.example", "c.example", "d.example", "gone.example"]);
    expect(order(sortPortfolio(rows, "currency", "asc"))).toEqual(["b.example", "d.example", "a.example", "c.example", "gone.example"]);
  });

  it("puts what needs attention first: a store that cannot be read, then the largest fall in revenue", () => {
    expect(order(sortPortfolio(rows, "attention", "asc"))).toEqual(["gone.example", "a.example", "c.example", "b.example", "d.example"]);
  });

  it("totals revenue per currency without converting, rounded to each currency's decimals, most stores first", () => {
    expect(totalsByCurrency([...rows, store("e.example", "JPY", 0.4, 1), store("f.example", "EUR", 0.105, 0)])).toEqual({
      EUR: { revenue: 300.11, stores: 2 },
      JPY: { revenue: 5000, stores: 2 },
      USD: { revenue: 190, stores: 2 },
    });
  });

  it("keeps its range, comparison and sort in the URL, and says what it could not read", () => {
    const { state, problems } = parsePortfolioState(new URLSearchParams(""));
    expect(state).toEqual({ range: "last7", from: undefined, to: undefined, compare: "previous", sort: "attention", direction: "asc" });
    expect(problems).toEqual([]);
    const custom = parsePortfolioState(new URLSearchParams("range=custom&from=2026-02-01&to=2026-02-28&compare=year&sort=revenue"));
    expect(portfolioSearch(custom.state)).toBe("range=custom&from=2026-02-01&to=2026-02-28&compare=year&sort=revenue");
    expect(portfolioQueryOf(custom.state)).toEqual({ startDate: "2026-02-01", endDate: "2026-02-28", compare: "year" });
    expect(viewSearch(custom.state)).toBe("range=custom&from=2026-02-01&to=2026-02-28&compare=year");
    expect(portfolioQueryOf(parsePortfolioState(new URLSearchParams("range=last90")).state)).toEqual({
      range: "last90",
      compare: "previous",
    });
    const odd = parsePortfolioState(new URLSearchParams("compare=both&sort=colour&direction=sideways"));
    expect(odd.state).toMatchObject({ compare: "previous", sort: "attention", direction: "asc" });
    expect(odd.problems).toHaveLength(2);
  });
});
