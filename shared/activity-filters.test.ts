import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { auditActions, auditOutcomes } from "@/shared/schemas/activity";
import { dayBoundsIn, filtersFromSearch, hasFilters, searchOfFilters } from "./activity-filters";

describe("activity filters in the URL", () => {
  it("reads every valid filter and keeps them through a round trip", () => {
    const search = new URLSearchParams(
      "action=campaign-group.clone&outcome=unknown&store=a.myshopify.com&person=Ann@Example.com&from=2026-01-01&to=2026-01-31",
    );
    const filters = filtersFromSearch(search);
    expect(filters).toEqual({
      action: "campaign-group.clone",
      outcome: "unknown",
      store: "a.myshopify.com",
      person: "Ann@Example.com",
      from: "2026-01-01",
      to: "2026-01-31",
    });
    expect(filtersFromSearch(new URLSearchParams(searchOfFilters(filters)))).toEqual(filters);
  });

  it("drops only the values the schema refuses", () => {
    const filters = filtersFromSearch(new URLSearchParams("action=delete-everything&outcome=failed&from=2026-13-45&person=%20%20"));
    expect(filters).toEqual({ outcome: "failed" });
    expect(hasFilters(filters)).toBe(true);
    expect(hasFilters(filtersFromSearch(new URLSearchParams("before=x&entry=y")))).toBe(false);
  });

  it("puts a backwards range the right way round", () => {
    expect(filtersFromSearch(new URLSearchParams("from=2026-02-10&to=2026-02-01"))).toEqual({ from: "2026-02-01", to: "2026-02-10" });
  });

  it("writes only the filters that are set, plus the extra parameters", () => {
    expect(searchOfFilters({ outcome: "failed" }, { before: "cursor", entry: undefined })).toBe("outcome=failed&before=cursor");
    expect(searchOfFilters({})).toBe("");
  });

  it("survives any query string, and what it reads round-trips", () => {
    const value = fc.oneof(fc.string(), fc.constantFrom(...auditActions, ...auditOutcomes, "2026-03-01", "2025-12-31"));
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom("action", "outcome", "store", "person", "from", "to", "x"), value), (params) => {
        const filters = filtersFromSearch(new URLSearchParams(params));
        expect(filtersFromSearch(new URLSearchParams(searchOfFilters(filters)))).toEqual(filters);
      }),
    );
  });
});

describe("dayBoundsIn", () => {
  it("reads the days in the store's zone, the last one included", () => {
    expect(dayBoundsIn({ from: "2026-11-01", to: "2026-11-02" }, "America/New_York")).toEqual({
      // Nov 1 starts at 04:00 UTC (still summer time); Nov 3 at 05:00 UTC (after the clocks went back).
      from: new Date("2026-11-01T04:00:00Z"),
      to: new Date("2026-11-03T05:00:00Z"),
    });
    expect(dayBoundsIn({ from: "2026-11-01" }, "Asia/Kolkata")).toEqual({ from: new Date("2026-10-31T18:30:00Z"), to: undefined });
    expect(dayBoundsIn({ to: "2026-11-01" }, "+05:30")).toEqual({ from: undefined, to: new Date("2026-11-01T18:30:00Z") });
  });

  it("starts a day whose midnight the clocks skip when they resume", () => {
    // Santiago springs forward at midnight on Sep 6, 2026: the day starts at 01:00 local, 04:00 UTC.
    expect(dayBoundsIn({ from: "2026-09-06" }, "America/Santiago").from).toEqual(new Date("2026-09-06T04:00:00Z"));
  });
});
