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
  it("lists every LinkedIn ad ID of the store's rows in its range, with the names and statuses enrich gives", async () => {
    const response = await linkedinAssetsRoute(dashboardRequest(`/api/stores/${US_STORE}/linkedin-assets`, { cookie }), {
      params: Promise.resolve({ storeUrl: US_STORE }),
    });
    expect(response.status).toBe(200);
    const body = linkedinAssetsSchema.parse(await response.json());
    const rows = (await raw(`/ad-metrics/${US_STORE}/products?startDate=${body.startDate}&endDate=${body.endDate}&channel=linkedin`)) as {
      ad_id: string | null;
    }[];
    const seen = [...new Set(rows.map((row) => row.ad_id).filter((id): id is string => Boolean(id)))];
    expect(seen.length).toBeGreaterThan(0);
    expect(body.assets.map((asset) => asset.id).sort()).toEqual(seen.sort());
    const { assets } = (await raw(`/ad-metrics/${US_STORE}/enrich`, {
      method: "POST",
      body: JSON.stringify({ channel: "linkedin", assetIds: seen }),
    })) as { assets: { assetId: string; assetName: string; assetStatus: string }[] };
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets)
      expect(body.assets.find((item) => item.id === asset.assetId)).toEqual({
        id: asset.assetId,
        seenAs: "ad",
        name: asset.assetName,
        status: asset.assetStatus,
      });
  });
});
