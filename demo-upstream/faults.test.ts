import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { contextSchema } from "@/shared/schemas/context";
import { apiErrorSchema } from "@/shared/schemas/error";
import { trackingConnectionSchema } from "@/shared/schemas/tracking-connection";
import { z } from "zod";
import { describeDemo } from "./describe";
import { startDemoUpstream, type DemoUpstream } from "./server";
import { call, KEY, STORE, storePath } from "./test-helpers";

let upstream: DemoUpstream;
beforeAll(async () => {
  upstream = await startDemoUpstream({ port: 0, control: true });
});
beforeEach(() => upstream.reset());
afterAll(() => upstream.close());

const productsUrl = () => `${upstream.baseUrl}${storePath("ad-metrics", STORE.nwUs, "/products")}?startDate=2025-01-01&endDate=2025-03-31`;
const headers = { "x-api-key": KEY.admin };

describe("fault injection", () => {
  it("adds latency before answering", async () => {
    upstream.setFaults([{ route: "me", latencyMs: 300 }]);
    const started = Date.now();
    const res = await call(upstream, "/me");
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
  });

  it("answers 503 with retryAfter in the body and a retry-after header", async () => {
    upstream.setFaults([{ route: "context", errorStatus: 503, retryAfter: "2" }]);
    const res = await call(upstream, "/context");
    expect(res.status).toBe(503);
    const error = apiErrorSchema.parse(res.body);
    expect(error.retryAfter).toBe("2");
    expect(error.requestId).toBe(res.headers.get("x-request-id"));
    expect(res.headers.get("retry-after")).toBe("2");
  });

  it("answers 500 with a requestId and retryAfter null when no retryAfter is set", async () => {
    upstream.setFaults([{ route: "*", errorStatus: 500 }]);
    const res = await call(upstream, storePath("store-data", STORE.nwUs));
    expect(res.status).toBe(500);
    expect(apiErrorSchema.parse(res.body)).toMatchObject({ retryAfter: null, requestId: expect.stringMatching(/^req_/) });
    expect(res.headers.get("retry-after")).toBeNull();
  });

  it("drops the connection without a response", async () => {
    upstream.setFaults([{ route: "me", dropRate: 1 }]);
    await expect(fetch(`${upstream.baseUrl}/me`, { headers })).rejects.toThrow();
  });

  it("sends 200 with a body that is not JSON (malformed)", async () => {
    upstream.setFaults([{ route: "pixels-list", malformedRate: 1 }]);
    const res = await call(upstream, storePath("pixels", STORE.nwUs));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(() => JSON.parse(res.text)).toThrow();
  });

  it("truncates a streamed products body: 200, a valid start, then the socket is cut", async () => {
    upstream.setFaults([{ route: "products", truncateRate: 1 }]);
    const res = await fetch(productsUrl(), { headers });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value).startsWith('[{"shop":')).toBe(true);
    await expect(
      (async () => {
        for (;;) if ((await reader.read()).done) return;
      })(),
    ).rejects.toThrow();
  });

  it("truncates a small JSON body too", async () => {
    upstream.setFaults([{ route: "context", truncateRate: 1 }]);
    const res = await fetch(`${upstream.baseUrl}/context`, { headers });
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
  });

  it("spends a rule after `times` matching requests", async () => {
    upstream.setFaults([{ route: "me", errorStatus: 503, times: 2 }]);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await call(upstream, "/me")).status);
    expect(statuses).toEqual([503, 503, 200, 200]);
  });

  it("limits a rule to one store when storeUrl is set", async () => {
    upstream.setFaults([{ route: "*", storeUrl: STORE.kumoJp, errorStatus: 503 }]);
    expect((await call(upstream, storePath("store-data", STORE.nwUs))).status).toBe(200);
    expect((await call(upstream, "/context")).status).toBe(200);
    expect((await call(upstream, storePath("store-data", STORE.kumoJp), { key: KEY.kumoJp })).status).toBe(503);
  });

  it("rolls seeded dice for partial rates (0 never, 0.5 some of each)", async () => {
    upstream.setFaults([
      { route: "organizations", errorRate: 0 },
      { route: "me", errorRate: 0.5 },
    ]);
    const orgs = await Promise.all(Array.from({ length: 10 }, () => call(upstream, "/organizations")));
    expect(orgs.every((res) => res.status === 200)).toBe(true);
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await call(upstream, "/me")).status);
    expect(statuses.filter((status) => status === 503).length).toBeGreaterThan(8);
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThan(8);
  });

  it("rejects invalid rules, and starts with the rules given as options", async () => {
    expect(() => upstream.setFaults([{ route: "nope" as "me" }])).toThrow();
    expect(() => upstream.setFaults([{ route: "me", errorRate: 2 }])).toThrow();
    const faulty = await startDemoUpstream({ port: 0, faults: [{ route: "*", errorStatus: 503, retryAfter: "5" }] });
    try {
      expect((await call(faulty, "/me")).status).toBe(503);
      faulty.reset();
      expect((await call(faulty, "/me")).status).toBe(200);
    } finally {
      await faulty.close();
    }
  });

  it("counts requests per route", async () => {
    await call(upstream, "/me");
    await call(upstream, "/me", { key: null });
    await call(upstream, storePath("pixels", STORE.nwUs));
    await call(upstream, "/nowhere");
    const counts = upstream.requestCounts();
    expect(counts.me).toBe(2);
    expect(counts["pixels-list"]).toBe(1);
    expect(counts.products).toBe(0);
    upstream.reset();
    expect(upstream.requestCounts().me).toBe(0);
  });
});

const stateSchema = z.object({
  pixels: z.record(z.string(), z.array(trackingConnectionSchema)),
  campaignGroups: z.record(z.string(), z.array(z.looseObject({ id: z.string(), name: z.string(), status: z.string() }))),
  clones: z.array(z.unknown()),
  requestCounts: z.record(z.string(), z.number()),
});

describe("control endpoints", () => {
  it("GET /__control/state shows pixels, campaign groups, clones and request counts", async () => {
    await call(upstream, "/context");
    const res = await call(upstream, "//__control/state", { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    const state = stateSchema.parse(res.body);
    expect(Object.keys(state.pixels)).toContain(STORE.kumoAu);
    // Numeric-looking keys come out in numeric order in any JS object, so compare as sets.
    expect(Object.keys(state.campaignGroups).sort()).toEqual(
      describeDemo()
        .adAccounts.map((account) => account.id)
        .sort(),
    );
    expect(state.requestCounts.context).toBe(1);
  });

  it("PUT /__control/faults replaces the rules, and rejects invalid rules with 400", async () => {
    const ok = await call(upstream, "//__control/faults", { method: "PUT", key: null, body: [{ route: "me", errorStatus: 500 }] });
    expect(ok.status).toBe(200);
    expect((await call(upstream, "/me")).status).toBe(500);
    const bad = await call(upstream, "//__control/faults", { method: "PUT", key: null, body: [{ route: "me", latencyMs: -1 }] });
    expect(bad.status).toBe(400);
    expect(apiErrorSchema.parse(bad.body).details).toMatchObject({ issues: [{ path: "0.latencyMs" }] });
    expect((await call(upstream, "//__control/faults", { method: "PUT", key: null, rawBody: "nope" })).status).toBe(400);
    await call(upstream, "//__control/faults", { method: "PUT", key: null, body: [] });
    expect((await call(upstream, "/me")).status).toBe(200);
  });

  it("POST /__control/reset restores state, clears faults and counters", async () => {
    const account = describeDemo().adAccounts[0]!;
    const clone = await call(upstream, storePath("platform", STORE.nwUs, "/actions/clone-linkedin-campaign"), {
      method: "POST",
      body: { adAccountId: account.id, payload: { sourceCampaignGroupId: account.campaignGroups[0]!.id, name: "Reset me" } },
    });
    expect(clone.status).toBe(200);
    const pixelId = stateSchema.parse((await call(upstream, "//__control/state", { key: null })).body).pixels[STORE.nwUs]![0]!.id;
    await call(upstream, storePath("pixels", STORE.nwUs, `/${pixelId}`), { method: "DELETE" });
    upstream.setFaults([{ route: "organizations", errorStatus: 503 }]);
    const dirty = stateSchema.parse((await call(upstream, "//__control/state", { key: null })).body);
    expect(dirty.clones).toHaveLength(1);
    expect(dirty.campaignGroups[account.id]).toHaveLength(account.campaignGroups.length + 1);

    expect((await call(upstream, "//__control/reset", { method: "POST", key: null })).status).toBe(200);
    const clean = stateSchema.parse((await call(upstream, "//__control/state", { key: null })).body);
    expect(clean.clones).toEqual([]);
    expect(clean.campaignGroups[account.id]).toHaveLength(account.campaignGroups.length);
    expect(clean.pixels[STORE.nwUs]!.map((pixel) => pixel.id)).toContain(pixelId);
    expect(Object.values(clean.requestCounts).every((count) => count === 0)).toBe(true);
    expect((await call(upstream, "/organizations")).status).toBe(200);
    contextSchema.parse((await call(upstream, "/context")).body);
  });

  it("POST /__control/revoke revokes a key until the next reset, as its owner would", async () => {
    expect((await call(upstream, "/me", { key: KEY.manager })).status).toBe(200);
    expect((await call(upstream, "//__control/revoke", { method: "POST", key: null, body: { key: KEY.manager } })).status).toBe(200);
    const refused = await call(upstream, "/me", { key: KEY.manager });
    expect(refused.status).toBe(401);
    expect(apiErrorSchema.parse(refused.body).error).toMatch(/revoked/);
    expect((await call(upstream, "//__control/revoke", { method: "POST", key: null, body: { nope: 1 } })).status).toBe(400);
    await call(upstream, "//__control/reset", { method: "POST", key: null });
    expect((await call(upstream, "/me", { key: KEY.manager })).status).toBe(200);
  });

  it("answers 405 for a wrong method and 404 for an unknown control path", async () => {
    const wrong = await call(upstream, "//__control/reset", { key: null });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("POST");
    expect((await call(upstream, "//__control/nothing", { key: null })).status).toBe(404);
  });
});
