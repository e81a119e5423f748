import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { formatDateTime } from "@/shared/format";
import { GenericValue } from "./generic-value";

const draw = (value: unknown, timeZone?: string) =>
  renderToStaticMarkup(createElement(GenericValue, { value, timeZone }))
    .replace(/<wbr\/>/g, "")
    .replace(/<[^>]+>/g, " ");

describe("GenericValue (issue 16, finding 5: raw API output shown as the interface)", () => {
  it("shows a clone step's times as dates in the store's zone, never as epoch numbers", () => {
    const text = draw({ step: "set-schedule", ok: true, startTime: 1_795_528_800_000, endTime: 1_796_133_600 }, "Asia/Tokyo");
    expect(text).not.toContain("1795528800000");
    expect(text).not.toContain("1796133600");
    expect(text).toContain(formatDateTime(1_795_528_800_000, "Asia/Tokyo"));
    expect(text).toContain(formatDateTime(1_796_133_600_000, "Asia/Tokyo"));
  });

  it("labels fields in words and reads status values as words", () => {
    const text = draw({ sourceCampaignGroupId: "612345678", status: "campaign_paused", dailyBudget: 1500 });
    expect(text).toContain("Source campaign group ID");
    expect(text).toContain("Campaign paused");
    expect(text).not.toContain("sourceCampaignGroupId");
    expect(text).not.toContain("campaign_paused");
    expect(text).toContain("1500");
  });
});
