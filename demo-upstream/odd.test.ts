import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { contextSchema } from "@/shared/schemas/context";
import { productMetricRowSchema } from "@/shared/schemas/product-metrics";
import { storeProfileSchema } from "@/shared/schemas/store";
import { interpretCurrency, interpretTimeZone } from "@/shared/store-locale";
import { describeDemo } from "./describe";
import { ODD_KEY_STRING, ODD_STORE } from "./odd-fixtures";
import { startDemoUpstream, type DemoUpstream } from "./server";
import { call, KEY, storePath } from "./test-helpers";

const ODD = ODD_STORE.url;
const JANUARY = { startDate: "2026-01-01", endDate: "2026-01-31" };
const odd = { key: ODD_KEY_STRING };

let off: DemoUpstream;
let on: DemoUpstream;
beforeAll(async () => {
  [off, on] = await Promise.all([startDemoUpstream({ port: 0, control: true }), startDemoUpstream({ port: 0, odd: true })]);
});
afterAll(() => Promise.all([off.close(), on.close()]));

describe("odd mode off", () => {
  it("does not know the odd key, and describes the demo without it", async () => {
    expect((await call(off, "/context", odd)).status).toBe(401);
    expect(describeDemo().keys.map((key) => key.key)).not.toContain(ODD_KEY_STRING);
    expect(describeDemo(42, true).keys.at(-1)?.key).toBe(ODD_KEY_STRING);
  });

  it("answers the other keys exactly as with odd mode on", async () => {
    for (const path of ["/context", storePath("store-data", "northwind-outfitters.myshopify.com"), storePath("pixels", "kumo-living.jp")]) {
      const key = path.includes("kumo") ? KEY.kumoJp : KEY.admin;
      expect((await call(on, path, { key })).text).toBe((await call(off, path, { key })).text);
    }
  });

  it("is switched by PUT /__control/odd, and a reset switches it back", async () => {
    const switched = await call(off, "//__control/odd", { method: "PUT", key: null, body: { enabled: true } });
    expect(switched.body).toEqual({ ok: true, odd: true });
    expect((await call(off, "/context", odd)).status).toBe(200);
    expect((await call(off, "//__control/odd", { method: "PUT", key: null, body: { enabled: "yes" } })).status).toBe(400);
    await call(off, "//__control/reset", { method: "POST", key: null });
    expect((await call(off, "/context", odd)).status).toBe(401);
  });
});

describe("odd mode on: the odd store", () => {
  it("has a time zone and currency that must be read another way", async () => {
    const profile = storeProfileSchema.parse((await call(on, storePath("store-data", ODD), odd)).body);
    expect(profile.id).toHaveLength(300);
    expect(interpretTimeZone(profile.timezone)).toMatchObject({ zone: "UTC", certain: false });
    expect(interpretCurrency(profile.currency).code).toBeNull();
    const context = contextSchema.parse((await call(on, "/context", odd)).body);
    expect(context.organizations[0]!.stores.map((store) => store.url)).toEqual([ODD]);
    expect(context.user.name.length).toBeLessThanOrEqual(300);
  });

  it("serves the same contract-valid rows every time, with odd channels, names and amounts", async () => {
    const first = await call(on, storePath("ad-metrics", ODD, "/products"), { ...odd, query: JANUARY });
    const again = await call(on, storePath("ad-metrics", ODD, "/products"), { ...odd, query: JANUARY });
    expect(again.text).toBe(first.text);
    const rows = z.array(productMetricRowSchema).parse(first.body);
    expect(new Set(rows.map((row) => row.channel))).toEqual(
      new Set(["facebook", "fediverse-beta", "google", "", "📺 TV (offline)", "linkedin"]),
    );
    expect(rows.some((row) => row.revenue === 1e12)).toBe(true);
    expect(rows.some((row) => row.revenue < 0)).toBe(true);
    expect(rows.some((row) => row.product_name === null)).toBe(true);
    expect(rows.every((row) => row.currency === null)).toBe(true);
    const unknownChannel = z
      .array(productMetricRowSchema)
      .parse(
        (await call(on, storePath("ad-metrics", ODD, "/products"), { ...odd, query: { ...JANUARY, channel: "fediverse-beta" } })).body,
      );
    expect(unknownChannel.length).toBeGreaterThan(0);
    expect(unknownChannel.every((row) => row.channel === "fediverse-beta")).toBe(true);
    const byCountry = await call(on, storePath("ad-metrics", ODD, "/products"), { ...odd, query: { ...JANUARY, filterCountry: "US" } });
    expect(byCountry.body).toEqual([]);
  });

  it("has no catalogs, tracking connections or dimension values, and one ad account to clone from", async () => {
    expect((await call(on, storePath("store-data", ODD, "/catalogs"), odd)).body).toEqual([]);
    expect((await call(on, storePath("pixels", ODD), odd)).body).toEqual({ storeUrl: ODD, pixels: [] });
    expect((await call(on, storePath("ad-metrics", ODD, "/dimensions"), { ...odd, query: JANUARY })).body).toEqual({
      countries: [],
      deviceTypes: [],
      os: [],
      browsers: [],
      productIds: [],
    });
    const account = describeDemo(42, true).adAccounts.find((candidate) => candidate.storeUrl === ODD)!;
    const clone = await call(on, storePath("platform", ODD, "/actions/clone-linkedin-campaign"), {
      ...odd,
      method: "POST",
      body: { adAccountId: account.id, payload: { sourceCampaignGroupId: account.campaignGroups[0]!.id, name: "Copy", status: "PAUSED" } },
    });
    expect(clone.status).toBe(200);
  });
});
