/** POST enrich (resolve asset IDs) and POST clone-linkedin-campaign (adds a campaign group). */

import { cloneCampaignRequestSchema } from "@/shared/schemas/campaign-clone";
import { enrichRequestSchema } from "@/shared/schemas/enrich";
import type { CampaignGroup } from "@/demo-upstream/assets";
import { getStoreCatalog } from "@/demo-upstream/catalog";
import { requireStore, type RequestContext } from "@/demo-upstream/context";
import { HttpError } from "@/demo-upstream/errors";
import { noQuerySchema, parseBody, parseQuery } from "@/demo-upstream/input";
import { ODD_ADS } from "@/demo-upstream/odd-data";
import { isOddStore } from "@/demo-upstream/odd-fixtures";

export function enrich(ctx: RequestContext) {
  parseQuery(noQuerySchema, ctx.query);
  const body = parseBody(enrichRequestSchema, ctx.body);
  const store = requireStore(ctx);
  const ads = isOddStore(store)
    ? new Map((ODD_ADS[body.channel] ?? []).map((ad) => [ad.id, { ...ad, effectiveStatus: ad.status, campaignName: ad.name }]))
    : getStoreCatalog(ctx.runtime.seed, ctx.runtime.scale, store.url).resolvableAds.get(body.channel);
  // LinkedIn campaign groups live in the (mutable) ad accounts, so clones resolve too.
  const groups = new Map<string, { group: CampaignGroup; adAccountId: string }>();
  if (body.channel === "linkedin") {
    for (const account of ctx.runtime.state.adAccountsOf(store.url)) {
      for (const group of account.campaignGroups) groups.set(group.id, { group, adAccountId: account.id });
    }
  }
  // Each LinkedIn ad runs in a campaign group of the store's own (the seeded ones, never a clone).
  const seeded = [...groups.values()].filter(({ group }) => group.clonedFrom === null);
  const groupOfAd = (id: string) => seeded[[...id].reduce((sum, char) => (sum * 31 + char.charCodeAt(0)) % 1_000_003, 7) % seeded.length];
  const seen = new Set<string>();
  const assets: Array<Record<string, unknown>> = [];
  for (const id of body.assetIds) {
    if (seen.has(id)) continue;
    seen.add(id);
    const ad = ads?.get(id);
    if (ad) {
      const parent = body.channel === "linkedin" && seeded.length > 0 ? groupOfAd(ad.id) : undefined;
      assets.push({
        assetType: "ad",
        assetId: ad.id,
        assetName: ad.name,
        assetStatus: ad.status,
        assetEffectiveStatus: ad.effectiveStatus,
        campaignName: ad.campaignName,
        // Additional properties, as the contract allows: the campaign (group) the ad runs in, and its ad account.
        ...(parent && { campaignId: parent.group.id, adAccountId: parent.adAccountId }),
      });
      continue;
    }
    const found = groups.get(id);
    if (found) {
      const { group, adAccountId } = found;
      assets.push({
        assetType: "campaign",
        assetId: group.id,
        assetName: group.name,
        assetStatus: group.status,
        assetEffectiveStatus: group.status,
        adAccountId,
        dailyBudget: group.dailyBudget,
        lifetimeBudget: group.lifetimeBudget,
      });
    }
  }
  return { json: { assets } };
}

const SUPPORTED_WRITES = ["name", "status", "dailyBudget", "lifetimeBudget", "endTime"];

export function cloneLinkedInCampaign(ctx: RequestContext) {
  parseQuery(noQuerySchema, ctx.query);
  const body = parseBody(cloneCampaignRequestSchema, ctx.body);
  const store = requireStore(ctx);
  const { state } = ctx.runtime;
  const account = state.adAccountsOf(store.url).find((candidate) => candidate.id === body.adAccountId);
  if (!account) throw new HttpError(404, `LinkedIn ad account ${body.adAccountId} was not found in store ${store.url}`);
  const { payload } = body;
  const source = account.campaignGroups.find((group) => group.id === payload.sourceCampaignGroupId);
  if (!source) throw new HttpError(404, `campaign group ${payload.sourceCampaignGroupId} was not found in ad account ${account.id}`);
  if (payload.currencyCode !== undefined && payload.currencyCode !== account.currency) {
    throw new HttpError(400, `the request body is invalid: payload.currencyCode must be the ad account's currency (${account.currency})`, {
      details: { issues: [{ path: "payload.currencyCode", message: `must be ${account.currency}` }] },
    });
  }
  const now = new Date().toISOString();
  const group: CampaignGroup = {
    id: state.nextCampaignGroupId(),
    name: payload.name,
    status: payload.status,
    dailyBudget: payload.budget ?? source.dailyBudget,
    lifetimeBudget: source.lifetimeBudget,
    currency: account.currency,
    startTime: payload.startTime ?? null,
    endTime: payload.endTime ?? null,
    createdAt: now,
    clonedFrom: source.id,
  };
  state.addCampaignGroup(account, group, {
    storeUrl: store.url,
    adAccountId: account.id,
    sourceCampaignGroupId: source.id,
    campaignGroupId: group.id,
    name: group.name,
    status: group.status,
    at: now,
  });
  const asset = {
    key: `linkedin:${account.id}:campaign:${group.id}`,
    platform: "linkedin",
    adAccountId: account.id,
    assetType: "campaign",
    assetId: group.id,
    name: group.name,
    supportedWrites: SUPPORTED_WRITES,
    parentAssetId: account.id,
    status: group.status,
    effectiveStatus: group.status,
    dailyBudget: group.dailyBudget,
    lifetimeBudget: group.lifetimeBudget,
    updatedAt: now,
  };
  const results = [
    { step: "copy-campaign-group", ok: true, sourceCampaignGroupId: source.id, campaignGroupId: group.id },
    { step: "set-status", ok: true, status: group.status },
    ...(payload.budget !== undefined ? [{ step: "set-budget", ok: true, dailyBudget: group.dailyBudget }] : []),
    ...(payload.endTime !== undefined ? [{ step: "set-schedule", ok: true, startTime: group.startTime, endTime: group.endTime }] : []),
  ];
  return {
    json: {
      ok: true,
      result: {
        id: group.id,
        adAccountId: account.id,
        sourceCampaignGroupId: source.id,
        name: group.name,
        status: group.status,
        currency: group.currency,
        createdAt: now,
      },
      asset,
      results,
    },
  };
}
