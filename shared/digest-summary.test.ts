import { describe, expect, it } from "vitest";
import { formatCountry } from "@/shared/format";
import { digestSummary, summaryLine } from "./digest-summary";

const NOW = new Date("2026-11-27T03:00:00Z");

describe("digestSummary", () => {
  it("names the filters and the attribution in words, the range in the store's zone and the comparison", () => {
    const summary = digestSummary("range=last7&country=CA&device=mobile&source=first_touch&compare=year", "America/Los_Angeles", NOW);
    expect(summary.filters).toBe(`Country: ${formatCountry("CA")} · Device type: mobile · credit to the first touch`);
    // 03:00 UTC is still the 26th in Los Angeles: the last 7 days end on the 26th there, not the 27th.
    expect(summary.range).toBe("Last 7 days: Nov 20, 2026 – Nov 26, 2026 (America/Los_Angeles)");
    expect(summary.comparison).toBe("compared with the same weekdays 52 weeks earlier: Nov 21, 2025 – Nov 27, 2025");
  });

  it("says when a view has no filter, and compares a view without comparison with the period just before", () => {
    const summary = digestSummary("range=custom&from=2026-01-01&to=2026-01-31&compare=off", "UTC", NOW);
    expect(summaryLine(summary)).toBe(
      "All orders (no filter) · credit to the conversion. Custom range: Jan 1, 2026 – Jan 31, 2026 (UTC), compared with the period just before: Dec 1, 2025 – Dec 31, 2025.",
    );
  });

  it("names a channel and several values of one filter", () => {
    expect(digestSummary("channel=facebook&country=CA,US", "UTC", NOW).filters).toBe(
      `Channel: facebook · Countries: ${formatCountry("CA")}, ${formatCountry("US")} · credit to the conversion`,
    );
  });
});
