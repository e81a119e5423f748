import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { describeDemo } from "./describe";
import { startDemoUpstream, type DemoUpstream } from "./server";
import { call, KEY, products, STORE, storePath, type CallOptions } from "./test-helpers";

const REQUESTS: Array<[string, CallOptions?]> = [
  ["/context"],
  ["/me"],
  ["/organizations"],
  ["/stores", { headers: { "x-service-organization-id": "org_northwind" } }],
  [storePath("store-data", STORE.nwUs)],
  [storePath("store-data", STORE.nwUs, "/catalogs")],
  [storePath("pixels", STORE.nwUs)],
  [storePath("ad-metrics", STORE.nwUs, "/products"), { query: { startDate: "2024-11-20", endDate: "2024-12-05" } }],
  [
    storePath("ad-metrics", STORE.nwUs, "/products"),
    { query: { startDate: "2025-06-01", endDate: "2025-06-07", filterCountry: "US,CA", dimension_source: "first_touch" } },
  ],
  [storePath("ad-metrics", STORE.kumoJp, "/products"), { key: KEY.kumoJp, query: { startDate: "2025-06-01", endDate: "2025-06-03" } }],
  [storePath("ad-metrics", STORE.nwUs, "/dimensions"), { query: { startDate: "2025-01-01", endDate: "2025-01-31", channel: "google" } }],
  [
    storePath("ad-metrics", STORE.nwUs, "/enrich"),
    { method: "POST", body: { channel: "linkedin", assetIds: describeDemo().adAccounts[0]!.campaignGroups.map((group) => group.id) } },
  ],
];

async function bodies(upstream: DemoUpstream): Promise<string[]> {
  const out: string[] = [];
  for (const [path, options] of REQUESTS) {
    const res = await call(upstream, path, options);
    expect(res.status).toBe(200);
    out.push(res.text);
  }
  return out;
}

let a: DemoUpstream;
let b: DemoUpstream;
let other: DemoUpstream;
beforeAll(async () => {
  [a, b, other] = await Promise.all([
    startDemoUpstream({ port: 0 }),
    startDemoUpstream({ port: 0, seed: 42 }),
    startDemoUpstream({ port: 0, seed: 7 }),
  ]);
});
afterAll(() => Promise.all([a.close(), b.close(), other.close()]));

describe("determinism", () => {
  it("gives byte-identical bodies from two servers with the same seed", async () => {
    const [first, second] = await Promise.all([bodies(a), bodies(b)]);
    expect(second).toEqual(first);
  });

  it("gives different data for a different seed", async () => {
    const query = { startDate: "2025-06-01", endDate: "2025-06-02" };
    const [mine, theirs] = await Promise.all([products(a, query), products(other, query)]);
    expect(JSON.stringify(theirs)).not.toBe(JSON.stringify(mine));
    const pixels = await Promise.all([a, other].map((upstream) => call(upstream, storePath("pixels", STORE.nwUs))));
    expect(pixels[1]?.text).not.toBe(pixels[0]?.text);
    expect(describeDemo(7).adAccounts[0]?.id).not.toBe(describeDemo(42).adAccounts[0]?.id);
  });

  it("does not depend on today's date", async () => {
    const query = { startDate: "2024-02-01", endDate: "2024-02-03" };
    const today = JSON.stringify(await products(a, query));
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2029-07-15T12:00:00Z") });
    try {
      const fresh = await startDemoUpstream({ port: 0 });
      const later = JSON.stringify(await products(fresh, query));
      await fresh.close();
      expect(later).toBe(today);
    } finally {
      vi.useRealTimers();
    }
  });

  it("keeps state per instance: a deletion on one server is not seen by another", async () => {
    const list = await call(a, storePath("pixels", STORE.nwUs));
    const pixelId = (list.body as { pixels: Array<{ id: string }> }).pixels[0]!.id;
    expect((await call(a, storePath("pixels", STORE.nwUs, `/${pixelId}`), { method: "DELETE" })).status).toBe(200);
    expect((await call(b, storePath("pixels", STORE.nwUs))).text).toBe(list.text);
    a.reset();
  });

  it("scales the row volume with `scale`", async () => {
    const big = await startDemoUpstream({ port: 0, scale: 3 });
    try {
      const query = { startDate: "2025-04-01", endDate: "2025-04-14" };
      const [small, large] = await Promise.all([products(a, query), products(big, query)]);
      expect(large.length / small.length).toBeGreaterThan(2.5);
      expect(large.length / small.length).toBeLessThan(3.5);
      expect(new Set(large.map((row) => row.product_id)).size).toBeGreaterThan(new Set(small.map((row) => row.product_id)).size);
    } finally {
      await big.close();
    }
  });
});

describe("describeDemo", () => {
  it("lists every demo key with its state, scope and permissions", () => {
    const { keys } = describeDemo();
    expect(keys.map((key) => [key.key, key.state])).toEqual([
      ["sk_demo_admin_nw_us_5d8e2f41c7a9", "active"],
      ["sk_demo_marketer_nw_us_9b1c6e03d2f4", "active"],
      ["sk_demo_manager_nw_us_7c2e5a90f3b1", "active"],
      ["sk_demo_admin_nw_eu_2a7f94c1e8b3", "active"],
      ["sk_demo_expired_nw_us_6e3b8d52a1f0", "expired"],
      ["sk_demo_revoked_nw_us_c4a19f7e2d68", "revoked"],
      ["sk_demo_legacy_unscoped_8f2d5b1a9c37", "legacy"],
      ["sk_demo_admin_kumo_jp_3c9e71f4b2a5", "active"],
      ["sk_demo_admin_kumo_au_e81d4c6b0a27", "active"],
    ]);
    expect(keys.find((key) => key.state === "legacy")).toMatchObject({ organizationId: null, storeUrl: null, permissions: [] });
    expect(keys.find((key) => key.key === KEY.marketer)?.permissions).toEqual(["analytics:read"]);
  });

  it("lists one or two LinkedIn ad accounts per store with 3 to 5 campaign groups each", () => {
    const { adAccounts } = describeDemo();
    for (const storeUrl of Object.values(STORE)) {
      const mine = adAccounts.filter((account) => account.storeUrl === storeUrl);
      expect(mine.length).toBeGreaterThanOrEqual(1);
      expect(mine.length).toBeLessThanOrEqual(2);
      for (const account of mine) {
        expect(account.campaignGroups.length).toBeGreaterThanOrEqual(3);
        expect(account.campaignGroups.length).toBeLessThanOrEqual(5);
        for (const group of account.campaignGroups) expect(group.id).toMatch(/^\d+$/);
      }
    }
    expect(describeDemo(42)).toEqual(describeDemo());
  });
});
