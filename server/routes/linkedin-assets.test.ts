import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as linkedinAssetsRoute } from "@/app/api/stores/[storeUrl]/linkedin-assets/route";
import { startDemoUpstream, type DemoUpstream } from "@/demo-upstream/server";
import { linkedinAssetsSchema } from "@/shared/schemas/linkedin-assets";
import { ADMIN_KEY, cookieFrom, dashboardRequest, US_STORE, useUpstream } from "@/test/harness";
import { signIn } from "./sign-in";

/** The clone form's suggestions from metrics: the LinkedIn IDs of the store's rows, named by enrich. */
let upstream: DemoUpstream;
let cookie = "";

beforeAll(async () => {
  upstream = await startDemoUpstream({ port: 0, control: true });
  useUpstream(upstream.baseUrl);
  cookie = cookieFrom(await signIn(dashboardRequest("/api/session", { method: "POST", body: JSON.stringify({ apiKey: ADMIN_KEY }) })));
});
afterAll(() => upstream.close());

const raw = async (path: string, init: RequestInit = {}) =>
  (await fetch(`${upstream.baseUrl}${path}`, { ...init, headers: { "x-api-key": ADMIN_KEY, "content-type": "application/json" } })).json();

describe("GET /api/stores/{storeUrl}/linkedin-assets", () => {
  it("offers only the campaign groups enrich names for the store's LinkedIn ads, with their ad accounts: never an ad", async () => {
    const response = await linkedinAssetsRoute(dashboardRequest(`/api/stores/${US_STORE}/linkedin-assets`, { cookie }), {
      params: Promise.resolve({ storeUrl: US_STORE }),
    });
    expect(response.status).toBe(200);
    const body = linkedinAssetsSchema.parse(await response.json());
    const rows = (await raw(`/ad-metrics/${US_STORE}/products?startDate=${body.startDate}&endDate=${body.endDate}&channel=linkedin`)) as {
      ad_id: string | null;
    }[];
    const adIds = [...new Set(rows.map((row) => row.ad_id).filter((id): id is string => Boolean(id)))];
    expect(adIds.length).toBeGreaterThan(0);
    expect(body.groups.length).toBeGreaterThan(0);
    // Not one ad ID among the groups: each is what enrich calls a campaign, named and with its status and account.
    expect(body.groups.filter((group) => adIds.includes(group.id))).toEqual([]);
    const { assets } = (await raw(`/ad-metrics/${US_STORE}/enrich`, {
      method: "POST",
      body: JSON.stringify({ channel: "linkedin", assetIds: body.groups.map((group) => group.id) }),
    })) as { assets: { assetType: string; assetId: string; assetName: string; assetStatus: string; adAccountId: string }[] };
    expect(assets.map((asset) => asset.assetType)).toEqual(body.groups.map(() => "campaign"));
    expect(body.groups).toEqual(
      assets.map((asset) => ({ id: asset.assetId, name: asset.assetName, status: asset.assetStatus, accountId: asset.adAccountId })),
    );
    expect(body.accounts).toEqual([...new Set(assets.map((asset) => asset.adAccountId))].map((id) => ({ id })));
  });
});
