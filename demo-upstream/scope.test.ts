import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contextSchema, meSchema, organizationsSchema, storesSchema } from "@/shared/schemas/context";
import { apiErrorSchema } from "@/shared/schemas/error";
import { storeProfileSchema } from "@/shared/schemas/store";
import { describeDemo } from "./describe";
import { startDemoUpstream, type DemoUpstream } from "./server";
import { call, KEY, STORE, storePath } from "./test-helpers";

let upstream: DemoUpstream;
beforeAll(async () => {
  upstream = await startDemoUpstream({ port: 0 });
});
afterAll(() => upstream.close());

const ORG_HEADER = "x-service-organization-id";

function errorOf(res: { status: number; body: unknown }, status: number): string {
  expect(res.status).toBe(status);
  return apiErrorSchema.parse(res.body).error;
}

describe("discovery narrowed to the key's scope", () => {
  it("GET /context returns the key's organization with only the key's store", async () => {
    const res = await call(upstream, "/context");
    expect(res.status).toBe(200);
    const context = contextSchema.parse(res.body);
    expect(context.user.name).toBe("Maya Chen");
    expect(context.organizations.map((org) => org.id)).toEqual(["org_northwind"]);
    expect(context.organizations[0]?.role).toBe("owner");
    expect(context.organizations[0]?.stores.map((store) => store.url)).toEqual([STORE.nwUs]);
  });

  it("GET /context narrows a Kumo key to Kumo and its store", async () => {
    const context = contextSchema.parse((await call(upstream, "/context", { key: KEY.kumoAu })).body);
    expect(context.organizations.map((org) => org.id)).toEqual(["org_kumo"]);
    expect(context.organizations[0]?.stores.map((store) => store.url)).toEqual([STORE.kumoAu]);
  });

  it("GET /context?organizationId accepts the key's own organization", async () => {
    const res = await call(upstream, "/context", { query: { organizationId: "org_northwind" } });
    expect(res.status).toBe(200);
    contextSchema.parse(res.body);
  });

  it("GET /context?organizationId answers 403 for an organization outside the key's scope", async () => {
    expect(errorOf(await call(upstream, "/context", { query: { organizationId: "org_kumo" } }), 403)).toMatch(/outside this key's scope/);
  });

  it("answers 400 to an unknown query parameter (on any endpoint)", async () => {
    const res = await call(upstream, "/context", { query: { org: "org_northwind" } });
    expect(errorOf(res, 400)).toMatch(/org is not a known parameter/);
    expect(apiErrorSchema.parse(res.body).details).toEqual({ issues: [{ path: "org", message: "is not a known parameter" }] });
    expect((await call(upstream, "/me", { query: { verbose: "1" } })).status).toBe(400);
  });

  it("GET /me returns the user and GET /organizations the organization without stores", async () => {
    expect(meSchema.parse((await call(upstream, "/me", { key: KEY.marketer })).body).user.name).toBe("Leo Park");
    const orgs = organizationsSchema.parse((await call(upstream, "/organizations", { key: KEY.manager })).body);
    expect(orgs.organizations).toEqual([
      {
        id: "org_northwind",
        name: "Northwind Outfitters",
        slug: "northwind-outfitters",
        createdAt: "2023-02-06T14:22:31.000Z",
        role: "admin",
      },
    ]);
  });

  it("GET /stores answers 400 without the x-service-organization-id header", async () => {
    expect(errorOf(await call(upstream, "/stores"), 400)).toMatch(/x-service-organization-id header is required/);
  });

  it("GET /stores lists the key's store when the header names the key's organization", async () => {
    const res = await call(upstream, "/stores", { headers: { [ORG_HEADER]: "org_northwind" } });
    expect(res.status).toBe(200);
    expect(storesSchema.parse(res.body).stores.map((store) => store.url)).toEqual([STORE.nwUs]);
  });

  it("answers 403 when x-service-organization-id names an organization the key cannot reach (any endpoint)", async () => {
    for (const path of ["/stores", "/context", storePath("store-data", STORE.nwUs), storePath("pixels", STORE.nwUs)]) {
      expect(errorOf(await call(upstream, path, { headers: { [ORG_HEADER]: "org_kumo" } }), 403)).toMatch(
        /cannot access organization org_kumo/,
      );
    }
    expect((await call(upstream, "/stores", { headers: { [ORG_HEADER]: "org_unknown" } })).status).toBe(403);
  });
});

describe("store scope", () => {
  it("GET /store-data/{storeUrl} returns the profile of the key's store (with or without the matching header)", async () => {
    const plain = await call(upstream, storePath("store-data", STORE.nwUs));
    const withHeader = await call(upstream, storePath("store-data", STORE.nwUs), { headers: { [ORG_HEADER]: "org_northwind" } });
    expect(plain.status).toBe(200);
    expect(withHeader.text).toBe(plain.text);
    expect(storeProfileSchema.parse(plain.body)).toMatchObject({
      url: STORE.nwUs,
      currency: "USD",
      timezone: "America/New_York",
      type: "shopify",
    });
    const jp = storeProfileSchema.parse((await call(upstream, storePath("store-data", STORE.kumoJp), { key: KEY.kumoJp })).body);
    expect(jp).toMatchObject({ currency: "JPY", timezone: "Asia/Tokyo", type: "woocommerce" });
  });

  it("answers 404 for a store of another organization, like an unknown store", async () => {
    const foreign = await call(upstream, storePath("store-data", STORE.kumoJp));
    const unknown = await call(upstream, storePath("store-data", "no-such-store.myshopify.com"));
    expect(errorOf(foreign, 404)).toBe(`store ${STORE.kumoJp} was not found`);
    expect(errorOf(unknown, 404)).toMatch(/was not found/);
    expect((await call(upstream, storePath("ad-metrics", STORE.kumoAu, "/dimensions"))).status).toBe(404);
  });

  it("answers 403 for another store of the key's own organization", async () => {
    expect(errorOf(await call(upstream, storePath("store-data", STORE.nwEu)), 403)).toMatch(/scoped to store northwind-outfitters/);
    expect((await call(upstream, storePath("pixels", STORE.nwUs), { key: KEY.adminEu })).status).toBe(403);
  });

  it("decodes {storeUrl} as one percent-encoded path segment", async () => {
    const encoded = `/store-data/${STORE.nwUs.replace(/\./g, "%2E")}`;
    expect((await call(upstream, encoded)).status).toBe(200);
    expect((await call(upstream, "/store-data/northwind-outfitters.myshopify.com%2Fcatalogs")).status).toBe(404);
  });

  it("answers 400 for an empty store URL segment and for malformed percent-encoding", async () => {
    expect(errorOf(await call(upstream, "/store-data//catalogs"), 400)).toMatch(/store URL/);
    expect(errorOf(await call(upstream, "/store-data/%E0%A4%A"), 400)).toMatch(/percent-encoding/);
  });
});

describe("permissions", () => {
  const cloneBody = () => {
    const account = describeDemo().adAccounts.find((entry) => entry.storeUrl === STORE.nwUs);
    return {
      adAccountId: account?.id ?? "",
      payload: { sourceCampaignGroupId: account?.campaignGroups[0]?.id ?? "", name: "Permission probe" },
    };
  };

  it("answers 403 when a read-only key clones a campaign", async () => {
    const res = await call(upstream, storePath("platform", STORE.nwUs, "/actions/clone-linkedin-campaign"), {
      method: "POST",
      key: KEY.marketer,
      body: cloneBody(),
    });
    expect(errorOf(res, 403)).toMatch(/not allowed to clone campaigns/);
  });

  it("answers 403 when a key without the delete permission deletes a tracking connection", async () => {
    for (const key of [KEY.marketer, KEY.manager]) {
      const res = await call(upstream, storePath("pixels", STORE.nwUs, "/px_whatever"), { method: "DELETE", key });
      expect(errorOf(res, 403)).toMatch(/not allowed to delete tracking connections/);
    }
  });

  it("checks permission before validation: a read-only key with an invalid body still gets 403", async () => {
    const res = await call(upstream, storePath("platform", STORE.nwUs, "/actions/clone-linkedin-campaign"), {
      method: "POST",
      key: KEY.marketer,
      rawBody: "{not json",
    });
    expect(res.status).toBe(403);
  });

  it("checks the organization header before the store: a foreign header on a foreign store gets 403", async () => {
    const res = await call(upstream, storePath("store-data", STORE.kumoJp), { headers: { [ORG_HEADER]: "org_kumo" } });
    expect(res.status).toBe(403);
  });
});

describe("routing", () => {
  it("answers 404 with an Error object for an unknown path", async () => {
    expect(errorOf(await call(upstream, "/ad-metrics"), 404)).toMatch(/no endpoint/);
    expect((await call(upstream, "/context/")).status).toBe(404);
  });

  it("answers 405 with an allow header for a known path with the wrong method", async () => {
    const res = await call(upstream, storePath("ad-metrics", STORE.nwUs, "/enrich"));
    expect(errorOf(res, 405)).toMatch(/method GET is not allowed/);
    expect(res.headers.get("allow")).toBe("POST");
    const del = await call(upstream, storePath("pixels", STORE.nwUs), { method: "DELETE" });
    expect(del.status).toBe(405);
    expect(del.headers.get("allow")).toBe("GET");
  });

  it("answers 404 for /__control when control endpoints are disabled", async () => {
    const res = await call(upstream, "//__control/state");
    expect(errorOf(res, 404)).toMatch(/no endpoint/);
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
  });
});
