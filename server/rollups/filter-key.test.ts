import { describe, expect, it } from "vitest";
import { upstreamRowFilters } from "./filter-key";

const range = { startDate: "2026-01-01", endDate: "2026-01-31" };

describe("the row filters only the upstream applies", () => {
  it("are none for channel, products and attribution", () => {
    expect(upstreamRowFilters({ ...range, channel: "google", filterProductId: "p1", dimension_source: "first_touch" })).toEqual({});
  });

  it("name each list as a set: trimmed, without repeats, sorted; the ad as named", () => {
    expect(upstreamRowFilters({ ...range, filterCountry: " FR,DE ,FR", adId: "ad_9", channel: "google" })).toEqual({
      filterCountry: "DE,FR",
      adId: "ad_9",
    });
  });
});
