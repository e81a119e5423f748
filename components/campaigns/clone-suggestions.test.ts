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
  it("offers each ad account and campaign group of a successful clone once, the newest first, clones made included", () => {
    const { accounts, groups, failed } = suggestionsFromActivity([
      entry({
        adAccountId: "545139905",
        adAccountName: "Northwind US",
        sourceCampaignGroupId: "674244742",
        sourceCampaignGroupName: "Q4",
        newGroupId: "700000001",
        newGroupName: "Q4 copy",
      }),
      entry({ adAccountId: "545139905", sourceCampaignGroupId: "674244742" }),
      entry({ adAccountId: "520156559", sourceCampaignGroupId: "610563786", newGroupId: "700000002" }, "unknown"),
      { ...entry({ connectionId: "px_1" }), action: "tracking-connection.remove" },
    ]);
    expect(accounts).toEqual([{ id: "545139905", name: "Northwind US" }]);
    expect(groups.map((group) => group.id)).toEqual(["674244742", "700000001"]);
    expect(groups[0]).toEqual({ id: "674244742", name: "Q4", accountId: "545139905" });
    expect([...failed]).toEqual([]);
  });

  it("never offers an ID whose clone failed (the ad ID taken for a group), unless a clone of it succeeded", () => {
    const { groups, accounts, failed } = suggestionsFromActivity([
      entry({ adAccountId: "545139905", sourceCampaignGroupId: "360106226" }, "failed"),
      entry({ adAccountId: "545139905", sourceCampaignGroupId: "674244742" }, "failed"),
      entry({ adAccountId: "545139905", sourceCampaignGroupId: "674244742", newGroupId: "700000003" }),
    ]);
    expect(groups.map((group) => group.id)).toEqual(["674244742", "700000003"]);
    expect(accounts.map((account) => account.id)).toEqual(["545139905"]);
    expect([...failed]).toEqual(["360106226"]);
  });

  it("labels a suggestion by its name, status and account", () => {
    expect(suggestionLabel({ id: "1", name: "Q4 Holiday", status: "PAUSED", accountId: "545139905" })).toBe(
      "Q4 Holiday · paused · account 545139905",
    );
    expect(suggestionLabel({ id: "1" })).toBe("");
  });
});

describe("clone suggestions from the store's LinkedIn data", () => {
  it("offers the campaign groups enrich named, with their status, account and where they come from, and their ad accounts", () => {
    const { groups, accounts } = suggestionsFromMetrics({
      startDate: "2026-09-01",
      endDate: "2026-11-29",
      groups: [{ id: "674244742", name: "Q4 Holiday", status: "ACTIVE", accountId: "545139905" }],
      accounts: [{ id: "545139905" }],
    });
    expect(groups.map((suggestion) => [suggestion.id, suggestionLabel(suggestion)])).toEqual([
      ["674244742", "Q4 Holiday · active · account 545139905 · named by LinkedIn for the store's ads"],
    ]);
    expect(accounts.map((account) => account.id)).toEqual(["545139905"]);
  });
});
