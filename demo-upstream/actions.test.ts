import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { cloneCampaignResponseSchema } from "@/shared/schemas/campaign-clone";
import { enrichResponseSchema } from "@/shared/schemas/enrich";
import { apiErrorSchema } from "@/shared/schemas/error";
import { catalogConnectionsSchema } from "@/shared/schemas/store";
import { trackingConnectionDeleteSchema, trackingConnectionListSchema } from "@/shared/schemas/tracking-connection";
import { describeDemo } from "./describe";
import { startDemoUpstream, type DemoUpstream } from "./server";
import { call, KEY, products, STORE, storePath } from "./test-helpers";

let upstream: DemoUpstream;
beforeAll(async () => {
  upstream = await startDemoUpstream({ port: 0 });
});
beforeEach(() => upstream.reset());
afterAll(() => upstream.close());

const enrichPath = storePath("ad-metrics", STORE.nwUs, "/enrich");
const clonePath = storePath("platform", STORE.nwUs, "/actions/clone-linkedin-campaign");
const accounts = describeDemo().adAccounts;
const usAccount = accounts.find((account) => account.storeUrl === STORE.nwUs)!;
const euAccount = accounts.find((account) => account.storeUrl === STORE.nwEu)!;
const sourceGroup = usAccount.campaignGroups[0]!;

async function listPixels(key: string = KEY.admin, storeUrl: string = STORE.nwUs) {
  const res = await call(upstream, storePath("pixels", storeUrl), { key });
  expect(res.status).toBe(200);
  return trackingConnectionListSchema.parse(res.body).pixels;
}

describe("POST /ad-metrics/{storeUrl}/enrich", () => {
  it("resolves ad IDs of the channel in request order and omits unknown IDs", async () => {
    const rows = await products(upstream, { startDate: "2025-02-01", endDate: "2025-02-28", channel: "facebook" });
    const seen = [...new Set(rows.map((row) => row.ad_id as string))];
    const res = await call(upstream, enrichPath, {
      method: "POST",
      body: { channel: "facebook", assetIds: ["404404", ...seen.slice().reverse()] },
    });
    expect(res.status).toBe(200);
    const { assets } = enrichResponseSchema.parse(res.body);
    const resolved = assets.map((asset) => asset.assetId);
    expect(resolved).toEqual(
      seen
        .slice()
        .reverse()
        .filter((id) => resolved.includes(id)),
    );
    for (const asset of assets) {
      expect(asset.assetType).toBe("ad");
      expect(asset.assetName).toMatch(/ — /);
      expect(["ACTIVE", "PAUSED", "ARCHIVED"]).toContain(asset.assetStatus);
    }
  });

  it("names, for each LinkedIn ad, the campaign group it runs in and that group's ad account (additional properties)", async () => {
    const rows = await products(upstream, { startDate: "2025-02-01", endDate: "2025-02-28", channel: "linkedin" });
    const seen = [...new Set(rows.map((row) => row.ad_id as string))];
    const { assets } = enrichResponseSchema.parse(
      (await call(upstream, enrichPath, { method: "POST", body: { channel: "linkedin", assetIds: seen } })).body,
    );
    const groups = accounts
      .filter((account) => account.storeUrl === STORE.nwUs)
      .flatMap((account) => account.campaignGroups.map((group) => ({ group, account })));
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      const parent = groups.find(({ group }) => group.id === (asset as Record<string, unknown>).campaignId);
      expect(parent, asset.assetId).toBeDefined();
      expect((asset as Record<string, unknown>).adAccountId).toBe(parent!.account.id);
    }
  });

  it("leaves about 10% of the ad IDs seen in rows unresolved (deleted ads)", async () => {
    const rows = await products(upstream, { startDate: "2025-01-01", endDate: "2025-03-31" });
    let seen = 0;
    let resolved = 0;
    for (const channel of ["facebook", "google", "tiktok", "linkedin", "pinterest", "snapchat"]) {
      const ids = [...new Set(rows.filter((row) => row.channel === channel).map((row) => row.ad_id as string))];
      const { assets } = enrichResponseSchema.parse(
        (await call(upstream, enrichPath, { method: "POST", body: { channel, assetIds: ids } })).body,
      );
      seen += ids.length;
      resolved += assets.length;
    }
    const unresolved = (seen - resolved) / seen;
    expect(unresolved).toBeGreaterThan(0.05);
    expect(unresolved).toBeLessThan(0.2);
  });

  it("does not resolve an ad of another channel", async () => {
    const rows = await products(upstream, { startDate: "2025-02-01", endDate: "2025-02-05", channel: "google" });
    const { assets } = enrichResponseSchema.parse(
      (
        await call(upstream, enrichPath, {
          method: "POST",
          body: { channel: "facebook", assetIds: rows.map((row) => row.ad_id as string) },
        })
      ).body,
    );
    expect(assets).toEqual([]);
  });

  it("resolves LinkedIn campaign group IDs as assetType campaign", async () => {
    const ids = usAccount.campaignGroups.map((group) => group.id);
    const { assets } = enrichResponseSchema.parse(
      (await call(upstream, enrichPath, { method: "POST", body: { channel: "linkedin", assetIds: ids } })).body,
    );
    expect(assets.map((asset) => [asset.assetType, asset.assetId, asset.assetName, asset.assetStatus])).toEqual(
      usAccount.campaignGroups.map((group) => ["campaign", group.id, group.name, group.status]),
    );
  });

  it("answers 400 for an invalid body and for a body that is not JSON", async () => {
    const missing = await call(upstream, enrichPath, { method: "POST", body: { channel: "facebook" } });
    expect(missing.status).toBe(400);
    expect(apiErrorSchema.parse(missing.body).details).toEqual({ issues: [{ path: "assetIds", message: "is required" }] });
    expect((await call(upstream, enrichPath, { method: "POST", body: { channel: "facebook", assetIds: [] } })).status).toBe(400);
    expect((await call(upstream, enrichPath, { method: "POST", body: { channel: "facebook", assetIds: ["1"], extra: true } })).status).toBe(
      400,
    );
    const notJson = await call(upstream, enrichPath, { method: "POST", rawBody: "{channel:" });
    expect(notJson.status).toBe(400);
    expect(apiErrorSchema.parse(notJson.body).error).toMatch(/not valid JSON/);
  });
});

describe("POST /platform/{storeUrl}/actions/clone-linkedin-campaign", () => {
  it("clones a campaign group as PAUSED by default, and the next read shows it", async () => {
    const res = await call(upstream, clonePath, {
      method: "POST",
      body: { adAccountId: usAccount.id, payload: { sourceCampaignGroupId: sourceGroup.id, name: "Spring Launch (copy)" } },
    });
    expect(res.status).toBe(200);
    const clone = cloneCampaignResponseSchema.parse(res.body);
    expect(clone.ok).toBe(true);
    expect(clone.asset).toMatchObject({
      platform: "linkedin",
      adAccountId: usAccount.id,
      assetType: "campaign",
      name: "Spring Launch (copy)",
      status: "PAUSED",
      supportedWrites: ["name", "status", "dailyBudget", "lifetimeBudget", "endTime"],
    });
    expect(clone.asset.assetId).not.toBe(sourceGroup.id);
    expect(clone.results.length).toBeGreaterThan(0);
    const { assets } = enrichResponseSchema.parse(
      (await call(upstream, enrichPath, { method: "POST", body: { channel: "linkedin", assetIds: [clone.asset.assetId] } })).body,
    );
    expect(assets).toEqual([expect.objectContaining({ assetType: "campaign", assetId: clone.asset.assetId, assetStatus: "PAUSED" })]);
  });

  it("keeps ACTIVE when asked explicitly, takes the budget, and gives each clone a new ID", async () => {
    const body = {
      adAccountId: usAccount.id,
      payload: { sourceCampaignGroupId: sourceGroup.id, name: "Live copy", status: "ACTIVE", budget: 125.5, currencyCode: "USD" },
    };
    const first = cloneCampaignResponseSchema.parse((await call(upstream, clonePath, { method: "POST", key: KEY.manager, body })).body);
    const second = cloneCampaignResponseSchema.parse((await call(upstream, clonePath, { method: "POST", key: KEY.manager, body })).body);
    expect(first.asset.status).toBe("ACTIVE");
    expect(first.asset.dailyBudget).toBe(125.5);
    expect(second.asset.assetId).not.toBe(first.asset.assetId);
  });

  it("answers 400 with issue paths such as payload.budget for an invalid body", async () => {
    const res = await call(upstream, clonePath, {
      method: "POST",
      body: { adAccountId: usAccount.id, payload: { sourceCampaignGroupId: sourceGroup.id, name: "x", budget: -5 } },
    });
    expect(res.status).toBe(400);
    expect(apiErrorSchema.parse(res.body).details).toEqual({ issues: [{ path: "payload.budget", message: "must be greater than 0" }] });
    const badStatus = await call(upstream, clonePath, {
      method: "POST",
      body: { adAccountId: usAccount.id, payload: { sourceCampaignGroupId: sourceGroup.id, name: "x", status: "DRAFT" } },
    });
    expect(badStatus.status).toBe(400);
  });

  it("answers 404 for an unknown ad account and for an ad account of another store", async () => {
    for (const adAccountId of ["500000000", euAccount.id]) {
      const res = await call(upstream, clonePath, {
        method: "POST",
        body: { adAccountId, payload: { sourceCampaignGroupId: sourceGroup.id, name: "x" } },
      });
      expect(res.status).toBe(404);
      expect(apiErrorSchema.parse(res.body).error).toMatch(/ad account .* was not found/);
    }
  });

  it("answers 404 for an unknown campaign group", async () => {
    const res = await call(upstream, clonePath, {
      method: "POST",
      body: { adAccountId: usAccount.id, payload: { sourceCampaignGroupId: "600000000", name: "x" } },
    });
    expect(res.status).toBe(404);
    expect(apiErrorSchema.parse(res.body).error).toMatch(/campaign group 600000000 was not found/);
  });

  it("validates before looking resources up: an invalid body for an unknown account gets 400", async () => {
    const res = await call(upstream, clonePath, { method: "POST", body: { adAccountId: "500000000", payload: { name: "x" } } });
    expect(res.status).toBe(400);
  });
});

describe("tracking connections", () => {
  it("GET /pixels/{storeUrl} lists 3 to 6 varied connections per store", async () => {
    for (const [key, storeUrl] of [
      [KEY.admin, STORE.nwUs],
      [KEY.adminEu, STORE.nwEu],
      [KEY.kumoJp, STORE.kumoJp],
      [KEY.kumoAu, STORE.kumoAu],
    ] as const) {
      const pixels = await listPixels(key, storeUrl);
      expect(pixels.length).toBeGreaterThanOrEqual(3);
      expect(pixels.length).toBeLessThanOrEqual(6);
      expect(new Set(pixels.map((pixel) => pixel.enabled)).size).toBe(2);
      expect(new Set(pixels.map((pixel) => pixel.hasUnpublishedChanges)).size).toBe(2);
      for (const pixel of pixels) expect(pixel.id).toMatch(/^[A-Za-z0-9_-]+$/);
    }
  });

  it("writes timestamps in milliseconds for Northwind and in seconds for Kumo", async () => {
    for (const pixel of await listPixels()) expect(pixel.createdAt).toBeGreaterThan(1e12);
    for (const pixel of await listPixels(KEY.kumoJp, STORE.kumoJp)) {
      expect(pixel.createdAt).toBeLessThan(1e11);
      expect(pixel.updatedAt).toBeGreaterThanOrEqual(pixel.createdAt);
    }
  });

  it("DELETE removes the connection, answers with the remaining ones, and the next list shows it gone", async () => {
    const before = await listPixels();
    const victim = before[1]!;
    const res = await call(upstream, storePath("pixels", STORE.nwUs, `/${victim.id}`), { method: "DELETE" });
    expect(res.status).toBe(200);
    const deleted = trackingConnectionDeleteSchema.parse(res.body);
    expect(deleted).toMatchObject({ storeUrl: STORE.nwUs, ok: true });
    expect(deleted.pixels.map((pixel) => pixel.id)).toEqual(before.filter((pixel) => pixel.id !== victim.id).map((pixel) => pixel.id));
    expect((await listPixels()).map((pixel) => pixel.id)).not.toContain(victim.id);
    const again = await call(upstream, storePath("pixels", STORE.nwUs, `/${victim.id}`), { method: "DELETE" });
    expect(again.status).toBe(404);
  });

  it("answers 404 for a pixel that is not in that store (even one of another store)", async () => {
    const kumoPixel = (await listPixels(KEY.kumoJp, STORE.kumoJp))[0]!;
    for (const pixelId of ["px_unknown", kumoPixel.id]) {
      const res = await call(upstream, storePath("pixels", STORE.nwUs, `/${pixelId}`), { method: "DELETE" });
      expect(res.status).toBe(404);
      expect(apiErrorSchema.parse(res.body).error).toMatch(/tracking connection .* was not found/);
    }
  });

  it("reset() restores deleted connections", async () => {
    const before = await listPixels();
    await call(upstream, storePath("pixels", STORE.nwUs, `/${before[0]!.id}`), { method: "DELETE" });
    upstream.reset();
    expect(await listPixels()).toEqual(before);
  });
});

describe("store data", () => {
  it("GET catalogs returns 0 to 3 generic connections, and an empty array for Kumo AU", async () => {
    const us = catalogConnectionsSchema.parse((await call(upstream, storePath("store-data", STORE.nwUs, "/catalogs"))).body);
    expect(us.length).toBe(3);
    expect(new Set(us.map((entry) => entry.status)).size).toBeGreaterThan(1);
    const au = await call(upstream, storePath("store-data", STORE.kumoAu, "/catalogs"), { key: KEY.kumoAu });
    expect(au.status).toBe(200);
    expect(au.body).toEqual([]);
  });
});
