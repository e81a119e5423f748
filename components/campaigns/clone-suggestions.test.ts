import { describe, expect, it } from "vitest";
import type { AuditEntry } from "@/shared/schemas/activity";
import { suggestionLabel, suggestionsFromActivity, suggestionsFromMetrics } from "./clone-suggestions";

const entry = (target: AuditEntry["target"], outcome: AuditEntry["outcome"] = "succeeded"): AuditEntry => ({
  id: crypto.randomUUID(),
  at: "2026-11-20T10:00:00Z",
  userEmail: "maya@example.com",
  organizationId: "org_northwind",
  storeUrl: "northwind-outfitters.myshopify.com",
  action: "campaign-group.clone",
  target,
  targetIds: [],
  resultIds: [],
  outcome,
  status: 200,
  requestId: null,
  upstreamRequestId: null,
});

describe("clone suggestions from Activity", () => {
  it("offers each ad account and campaign group once, the newest first, clones made included", () => {
    const { accounts, groups } = suggestionsFromActivity([
      entry({
        adAccountId: "545139905",
        adAccountName: "Northwind US",
        sourceCampaignGroupId: "674244742",
        sourceCampaignGroupName: "Q4",
        newGroupId: "700000001",
        newGroupName: "Q4 copy",
      }),
      entry({ adAccountId: "545139905", sourceCampaignGroupId: "674244742" }),
      entry({ adAccountId: "520156559", sourceCampaignGroupId: "610563786", newGroupId: "700000002" }, "failed"),
      { ...entry({ connectionId: "px_1" }), action: "tracking-connection.remove" },
    ]);
    expect(accounts).toEqual([
      { id: "545139905", name: "Northwind US" },
      { id: "520156559", name: undefined },
    ]);
    expect(groups.map((group) => group.id)).toEqual(["674244742", "700000001", "610563786"]);
    expect(groups[0]).toEqual({ id: "674244742", name: "Q4", accountId: "545139905" });
  });

  it("labels a suggestion by its name, status and account", () => {
    expect(suggestionLabel({ id: "1", name: "Q4 Holiday", status: "PAUSED", accountId: "545139905" })).toBe(
      "Q4 Holiday · paused · account 545139905",
    );
    expect(suggestionLabel({ id: "1" })).toBe("");
  });
});

describe("clone suggestions from the store's LinkedIn metrics", () => {
  it("names each campaign and ad seen, with its status and where it was seen; an unresolved one keeps its ID", () => {
    const suggestions = suggestionsFromMetrics([
      { id: "31000001", seenAs: "ad", name: "Winter — Video Ad — Makers", status: "PAUSED" },
      { id: "900", seenAs: "campaign" },
    ]);
    expect(suggestions.map((suggestion) => [suggestion.id, suggestionLabel(suggestion)])).toEqual([
      ["31000001", "Winter — Video Ad — Makers · paused · ad in LinkedIn metrics"],
      ["900", "campaign in LinkedIn metrics, name unknown"],
    ]);
  });
});
