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
 * The ad accounts and campaign groups this store cloned from (or into) before, as Activity
 * recorded them, newest first and each once.
 */
export function suggestionsFromActivity(entries: readonly AuditEntry[]): { accounts: Suggestion[]; groups: Suggestion[] } {
  const accounts = new Map<string, Suggestion>();
  const groups = new Map<string, Suggestion>();
  for (const entry of entries) {
    if (entry.action !== "campaign-group.clone") continue;
    const { adAccountId, adAccountName, sourceCampaignGroupId, sourceCampaignGroupName, newGroupId, newGroupName } = entry.target;
    if (adAccountId && !accounts.has(adAccountId)) accounts.set(adAccountId, { id: adAccountId, name: adAccountName });
    if (sourceCampaignGroupId && !groups.has(sourceCampaignGroupId))
      groups.set(sourceCampaignGroupId, { id: sourceCampaignGroupId, name: sourceCampaignGroupName, accountId: adAccountId });
    if (newGroupId && entry.outcome === "succeeded" && !groups.has(newGroupId))
      groups.set(newGroupId, { id: newGroupId, name: newGroupName, accountId: adAccountId });
  }
  return { accounts: [...accounts.values()], groups: [...groups.values()] };
}

/** The campaigns and ads of the store's LinkedIn metrics rows, named and given their status by enrich where it could. */
export function suggestionsFromMetrics(assets: LinkedInAssets["assets"]): Suggestion[] {
  return assets.map((asset) => ({
    id: asset.id,
    name: asset.name,
    status: asset.status,
    origin: `${asset.seenAs} in LinkedIn metrics${asset.name ? "" : ", name unknown"}`,
  }));
}

/** What the clone form offers to pick from: earlier clones of this store, groups named and given their status by enrich. */
export function useCloneSuggestions(storeUrl: string, organizationId?: string) {
  const activity = useActivity({ action: "campaign-group.clone", store: storeUrl });
  const entries = activity.data?.pages.flatMap((page) => page.entries) ?? [];
  const { accounts, groups } = suggestionsFromActivity(entries);
  const enriched = useEnrichedAssets(
    storeUrl,
    "linkedin",
    groups.map((group) => group.id),
    organizationId,
  );
  const metrics = useLinkedInAssets(storeUrl, organizationId);
  const byId = new Map((enriched.data?.assets ?? []).map((asset) => [asset.assetId, asset]));
  const cloned = groups.map((group) => {
    const asset = byId.get(group.id);
    return asset ? { ...group, name: asset.assetName, status: asset.assetStatus } : group;
  });
  const known = new Set(cloned.map((group) => group.id));
  const seen = suggestionsFromMetrics(metrics.data?.assets ?? []).filter((suggestion) => !known.has(suggestion.id));
  return { accounts, groups: [...cloned, ...seen], fromClones: cloned.length, fromMetrics: seen.length };
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
