import { describe, expect, it } from "vitest";
import type { MetricRow } from "./aggregate";
import { ENRICH_LIMIT, LinkedInIds } from "./linkedin-ids";

const row = (channel: string, adId: string | null, revenue: number, extra: Record<string, unknown> = {}) =>
  ({ date: "2026-11-01", channel, ad_id: adId, product_id: "p1", orders: 1, units: 1, revenue, ...extra }) as unknown as MetricRow;

describe("LinkedInIds", () => {
  it("keeps LinkedIn rows' campaign and ad IDs once each, the most revenue first", () => {
    const ids = new LinkedInIds();
    for (const item of [
      row("linkedin", "31", 5),
      row("facebook", "2385", 100),
      row("linkedin", "32", 8, { campaign_id: "900" }),
      row("linkedin", "31", 4),
      row("linkedin", null, 50),
    ])
      ids.add(item);
    expect(ids.result()).toEqual([
      { id: "31", seenAs: "ad" },
      { id: "32", seenAs: "ad" },
      { id: "900", seenAs: "campaign" },
    ]);
  });

  it("asks enrich for no more IDs than it resolves at once", () => {
    const ids = new LinkedInIds();
    for (let index = 0; index < ENRICH_LIMIT + 20; index++) ids.add(row("linkedin", `3${index}`, index));
    const result = ids.result();
    expect(result).toHaveLength(ENRICH_LIMIT);
    expect(result[0]!.id).toBe(`3${ENRICH_LIMIT + 19}`);
  });
});
