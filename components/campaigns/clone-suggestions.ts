"use client";

import { useActivity } from "@/client/queries/activity";
import { useEnrichedAssets } from "@/client/queries/enrich";
import { useLinkedInAssets } from "@/client/queries/linkedin-assets";
import type { AuditEntry } from "@/shared/schemas/activity";
import type { LinkedInAssets } from "@/shared/schemas/linkedin-assets";

export interface Suggestion {
  id: string;
  name?: string;
  status?: string;
  /** For a campaign group: the ad account that holds it. */
  accountId?: string;
  /** Where the ID was seen, when not in an earlier clone ("an ad of the LinkedIn metrics"). */
  origin?: string;
}

/**
 * The ad accounts and campaign groups of this store's earlier clones that succeeded, as Activity
 * recorded them, newest first and each once; and the source IDs whose clones failed, never to be
 * suggested again (a group a later clone took is no longer failed).
 */
export function suggestionsFromActivity(entries: readonly AuditEntry[]): {
  accounts: Suggestion[];
  groups: Suggestion[];
  failed: Set<string>;
} {
  const accounts = new Map<string, Suggestion>();
  const groups = new Map<string, Suggestion>();
  const failed = new Set<string>();
  for (const entry of entries) {
    if (entry.action !== "campaign-group.clone") continue;
    const { adAccountId, adAccountName, sourceCampaignGroupId, sourceCampaignGroupName, newGroupId, newGroupName } = entry.target;
    if (entry.outcome === "failed" && sourceCampaignGroupId) failed.add(sourceCampaignGroupId);
    if (entry.outcome !== "succeeded") continue;
    if (adAccountId && !accounts.has(adAccountId)) accounts.set(adAccountId, { id: adAccountId, name: adAccountName });
    if (sourceCampaignGroupId && !groups.has(sourceCampaignGroupId))
      groups.set(sourceCampaignGroupId, { id: sourceCampaignGroupId, name: sourceCampaignGroupName, accountId: adAccountId });
    if (newGroupId && !groups.has(newGroupId)) groups.set(newGroupId, { id: newGroupId, name: newGroupName, accountId: adAccountId });
  }
  for (const id of groups.keys()) failed.delete(id);
  return { accounts: [...accounts.values()], groups: [...groups.values()], failed };
}

/** The campaign groups the store's LinkedIn data names (enrich called each a campaign), and their ad accounts. */
export function suggestionsFromMetrics(assets: LinkedInAssets): { groups: Suggestion[]; accounts: Suggestion[] } {
  const origin = "named by LinkedIn for the store's ads";
  return {
    groups: assets.groups.map((group) => ({ id: group.id, name: group.name, status: group.status, accountId: group.accountId, origin })),
    accounts: assets.accounts.map((account) => ({ id: account.id, origin: "holds the campaign groups of the store's LinkedIn ads" })),
  };
}

/**
 * What the clone form offers to pick from: campaign groups only, from this store's earlier
 * successful clones (named and given their status by enrich) and from its LinkedIn data; an ID
 * whose clone failed is never offered. Ad accounts from the same two places, so there is one on first use.
 */
export function useCloneSuggestions(storeUrl: string, organizationId?: string) {
  const activity = useActivity({ action: "campaign-group.clone", store: storeUrl });
  const entries = activity.data?.pages.flatMap((page) => page.entries) ?? [];
  const { accounts, groups, failed } = suggestionsFromActivity(entries);
  const enriched = useEnrichedAssets(
    storeUrl,
    "linkedin",
    groups.map((group) => group.id),
    organizationId,
  );
  const metrics = useLinkedInAssets(storeUrl, organizationId);
  const byId = new Map((enriched.data?.assets ?? []).map((asset) => [asset.assetId, asset]));
  const cloned = groups
    // A group enrich now calls something else than a campaign is not one to clone.
    .filter((group) => (byId.get(group.id)?.assetType ?? "campaign") === "campaign")
    .map((group) => {
      const asset = byId.get(group.id);
      return asset ? { ...group, name: asset.assetName, status: asset.assetStatus } : group;
    });
  const fromData = suggestionsFromMetrics(metrics.data ?? { startDate: "", endDate: "", groups: [], accounts: [] });
  const known = new Set(cloned.map((group) => group.id));
  const seen = fromData.groups.filter((suggestion) => !known.has(suggestion.id) && !failed.has(suggestion.id));
  const knownAccounts = new Set(accounts.map((account) => account.id));
  const allAccounts = [...accounts, ...fromData.accounts.filter((account) => !knownAccounts.has(account.id))];
  return { accounts: allAccounts, groups: [...cloned, ...seen], fromClones: cloned.length, fromMetrics: seen.length };
}

/** A suggestion as its option's label: name, status and where it was seen, the ID being the option's value. */
export const suggestionLabel = (suggestion: Suggestion) =>
  [
    suggestion.name,
    suggestion.status && suggestion.status.toLowerCase(),
    suggestion.accountId && `account ${suggestion.accountId}`,
    suggestion.origin,
  ]
    .filter(Boolean)
    .join(" · ");
