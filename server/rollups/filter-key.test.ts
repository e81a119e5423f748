import { describe, expect, it } from "vitest";
import { filterKeyOf, upstreamRowFilters } from "./filter-key";

const range = { startDate: "2026-01-01", endDate: "2026-01-31" };

describe("the rollups' key of a view's row filters", () => {
  it("is empty without row filters, whatever the channel, products and attribution", () => {
    expect(filterKeyOf(range)).toBe("");
    expect(filterKeyOf({ ...range, channel: "google", filterProductId: "p1,p2", dimension_source: "first_touch" })).toBe("");
    expect(upstreamRowFilters({ ...range, channel: "google", filterProductId: "p1" })).toEqual({});
  });

  it("names each list as a set: trimmed, without repeats, sorted; in a fixed order of parts", () => {
    expect(filterKeyOf({ ...range, filterDeviceType: "mobile", filterCountry: " FR,DE ,FR" })).toBe("country=DE,FR;device=mobile");
    expect(filterKeyOf({ ...range, filterCountry: "DE,FR", filterDeviceType: "mobile" })).toBe("country=DE,FR;device=mobile");
    expect(filterKeyOf({ ...range, adId: "ad_9", filterBrowser: "Safari,Chrome", filterOS: "iOS" })).toBe(
      "os=iOS;browser=Chrome,Safari;ad=ad_9",
    );
    expect(upstreamRowFilters({ ...range, filterCountry: " FR,DE ,FR", adId: "ad_9", channel: "google" })).toEqual({
      filterCountry: "DE,FR",
      adId: "ad_9",
    });
  });

  it("never gives two different filters the same key, even with separators inside a value", () => {
    const keys = [
      { filterOS: "x;browser=y" },
      { filterOS: "x", filterBrowser: "y" },
      { adId: "a,b" },
      { adId: "a%2Cb" },
      { filterCountry: "a=b" },
      { filterCountry: "a%3Db" },
    ].map((filters) => filterKeyOf({ ...range, ...filters }));
    expect(new Set(keys).size).toBe(keys.length);
    expect(filterKeyOf({ ...range, adId: "a,b" })).toBe("ad=a%2Cb");
  });

  it("keeps a long key as its digest, still one per set of filters", () => {
    const countries = Array.from({ length: 400 }, (_, i) => `C${i}`);
    const long = filterKeyOf({ ...range, filterCountry: countries.join(",") });
    expect(long).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(filterKeyOf({ ...range, filterCountry: [...countries].reverse().join(", ") })).toBe(long);
    expect(filterKeyOf({ ...range, filterCountry: countries.slice(1).join(",") })).not.toBe(long);
  });
});
