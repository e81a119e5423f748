import { describe, expect, it } from "vitest";
import { dateRangeOf, defaultViewState, filtersOf, parseViewState, toSearchParams } from "./view-state";

describe("the product-metrics view in the URL", () => {
  it("round-trips every setting", () => {
    const url =
      "range=custom&from=2026-01-01&to=2026-01-31&compare=year&channel=google&ad=123&country=US,DE&device=mobile&os=iOS&browser=Safari&product=p1,p2&source=both&granularity=week&sort=orders&direction=asc&q=beanie&page=3";
    const { state, problems } = parseViewState(new URLSearchParams(url));
    expect(problems).toEqual([]);
    expect(state).toMatchObject({
      range: "custom",
      from: "2026-01-01",
      to: "2026-01-31",
      compare: "year",
      channel: "google",
      adId: "123",
      countries: ["US", "DE"],
      products: ["p1", "p2"],
      source: "both",
      granularity: "week",
      sort: "orders",
      direction: "asc",
      q: "beanie",
      page: 3,
    });
    expect(toSearchParams(state).toString()).toBe(new URLSearchParams(url).toString());
  });

  it("writes nothing for the defaults", () => {
    expect(toSearchParams(defaultViewState).toString()).toBe("");
  });

  it("compares with the previous period unless the URL says no comparison", () => {
    expect(parseViewState(new URLSearchParams("")).state.compare).toBe("previous");
    const off = parseViewState(new URLSearchParams("compare=off")).state;
    expect(off.compare).toBe("off");
    expect(toSearchParams(off).toString()).toBe("compare=off");
    expect(parseViewState(toSearchParams(off)).state.compare).toBe("off");
  });

  it("drops what it does not understand and says so", () => {
    const { state, problems } = parseViewState(new URLSearchParams("range=last9000&compare=maybe&page=-2&country=US,,DE&granularity=hour"));
    expect(state).toMatchObject({ range: "last30", compare: "previous", page: 1, countries: ["US", "DE"], granularity: undefined });
    expect(problems).toHaveLength(5);
    expect(problems[0]).toContain('date range "last9000"');
  });

  it("fixes a custom range that is incomplete or reversed", () => {
    expect(parseViewState(new URLSearchParams("range=custom&from=2026-01-01")).state.range).toBe("last30");
    const reversed = parseViewState(new URLSearchParams("range=custom&from=2026-02-01&to=2026-01-01"));
    expect(reversed.state).toMatchObject({ from: "2026-01-01", to: "2026-02-01" });
    expect(reversed.problems).toHaveLength(1);
    expect(parseViewState(new URLSearchParams("range=custom&from=2026-02-30&to=2026-03-01")).problems.length).toBeGreaterThan(0);
  });

  it("turns the view into the upstream query, with every filter", () => {
    const { state } = parseViewState(
      new URLSearchParams("channel=google&ad=9&country=US,DE&device=mobile&os=iOS&browser=Safari&product=p1"),
    );
    const range = dateRangeOf(state, "America/New_York", new Date("2026-03-01T03:30:00Z"));
    expect(range).toEqual({ startDate: "2026-01-30", endDate: "2026-02-28" });
    expect(filtersOf(state, range, "first_touch")).toEqual({
      ...range,
      channel: "google",
      adId: "9",
      filterCountry: "US,DE",
      filterDeviceType: "mobile",
      filterOS: "iOS",
      filterBrowser: "Safari",
      filterProductId: "p1",
      dimension_source: "first_touch",
    });
  });
});
