import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { describeDemo } from "@/demo-upstream/describe";
import { startDemoUpstream, type DemoUpstream } from "@/demo-upstream/server";
import { ADMIN_KEY, cookieFrom, dashboardRequest, useUpstream } from "@/test/harness";
import { currentSession, signIn, signOut } from "./sign-in";

let upstream: DemoUpstream;
let client = 0;

beforeAll(async () => {
  upstream = await startDemoUpstream({ port: 0 });
});
afterAll(() => upstream.close());
beforeEach(() => useUpstream(upstream.baseUrl));
afterEach(() => vi.unstubAllEnvs());

/** Each test signs in from its own address, so the failure limit of one does not spill into another. */
function signInRequest(body: unknown, headers: Record<string, string> = {}) {
  return dashboardRequest("/api/session", {
    method: "POST",
    body: JSON.stringify(body),
    headers: { "content-type": "application/json", "x-dashboard-client-address": `10.0.0.${++client}`, ...headers },
  });
}

describe("POST /api/session", () => {
  it("signs in with a valid key: a sealed httpOnly cookie, the summary, never the key", async () => {
    const response = await signIn(signInRequest({ apiKey: ADMIN_KEY }));
    expect(response.status).toBe(200);
    const setCookie = response.headers.get("set-cookie")!;
    expect(setCookie).toMatch(/^session=.+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+/);
    expect(setCookie).not.toContain(ADMIN_KEY);
    const text = await response.text();
    expect(text).not.toContain(ADMIN_KEY);
    const body = JSON.parse(text);
    expect(body.session.user.email).toMatch(/@/);
    expect(body.context.organizations[0].stores.length).toBeGreaterThan(0);
  });

  it.each([
    ["an expired key", "sk_demo_expired_nw_us_6e3b8d52a1f0", 401, "key_expired"],
    ["a revoked key", "sk_demo_revoked_nw_us_c4a19f7e2d68", 401, "key_revoked"],
    ["an unknown key", "sk_not_a_real_key_000000", 401, "key_invalid"],
    ["a legacy key without store scope", "sk_demo_legacy_unscoped_8f2d5b1a9c37", 403, "key_unscoped"],
  ])("refuses %s with its reason and no session", async (_label, apiKey, status, code) => {
    const response = await signIn(signInRequest({ apiKey }));
    expect(response.status).toBe(status);
    const body = await response.json();
    expect(body.code).toBe(code);
    expect(body.error).toEqual(expect.any(String));
    expect(body.requestId).toEqual(expect.any(String));
    expect(response.headers.get("set-cookie")).toMatch(/^session=; .*Max-Age=0/);
    expect(JSON.stringify(body)).not.toContain(apiKey);
  });

  it("refuses an organization the key cannot reach with 403", async () => {
    const response = await signIn(signInRequest({ apiKey: ADMIN_KEY, organizationId: "org_kumo" }));
    expect(response.status).toBe(403);
    expect((await response.json()).code).toBe("forbidden");
  });

  it("answers 400 for a body that is not JSON or has unknown fields", async () => {
    const notJson = dashboardRequest("/api/session", {
      method: "POST",
      body: "{apiKey:",
      headers: { "x-dashboard-client-address": "10.1.0.1" },
    });
    expect((await signIn(notJson)).status).toBe(400);
    expect((await signIn(signInRequest({ apiKey: ADMIN_KEY, extra: 1 }))).status).toBe(400);
    expect((await signIn(signInRequest({ apiKey: "" }))).status).toBe(400);
  });

  it("refuses a cross-site sign-in", async () => {
    const response = await signIn(signInRequest({ apiKey: ADMIN_KEY }, { origin: "https://evil.example" }));
    expect(response.status).toBe(403);
    expect(response.headers.get("set-cookie")).toBeNull();
  });

  it("answers 429 with retry-after after 10 failed attempts in a minute", async () => {
    const from = { "x-dashboard-client-address": "10.9.9.9" };
    for (let attempt = 0; attempt < 10; attempt++) {
      expect((await signIn(signInRequest({ apiKey: `sk_wrong_${attempt}` }, from))).status).toBe(401);
    }
    const limited = await signIn(signInRequest({ apiKey: ADMIN_KEY }, from));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await limited.json()).code).toBe("rate_limited");
  });

  it("answers 502 when the upstream answers garbage, and 504 when it is too slow; no session either way", async () => {
    upstream.setFaults([{ route: "context", malformedRate: 1, times: 1 }]);
    const garbage = await signIn(signInRequest({ apiKey: ADMIN_KEY }));
    expect(garbage.status).toBe(502);
    expect((await garbage.json()).code).toBe("upstream_malformed");
    expect(garbage.headers.get("set-cookie")).toMatch(/Max-Age=0/);

    vi.stubEnv("UPSTREAM_TIMEOUT_MS", "200");
    upstream.setFaults([{ route: "context", latencyMs: 1_000, times: 1 }]);
    const slow = await signIn(signInRequest({ apiKey: ADMIN_KEY }));
    expect(slow.status).toBe(504);
    expect((await slow.json()).requestId).toEqual(expect.any(String));
    upstream.setFaults([]);
  });

  it("offers demo keys by id only in demo mode", async () => {
    const { demoKeyOptions } = await import("@/server/auth/demo-keys");
    const keys = JSON.stringify(describeDemo().keys.map(({ key, label, state }) => ({ key, label, state })));
    vi.stubEnv("DEMO_KEYS", keys);
    expect(demoKeyOptions()).toEqual([]);
    vi.stubEnv("DEMO_MODE", "1");
    const admin = demoKeyOptions().find((option) => option.label.startsWith("Admin — Northwind US"))!;
    expect(JSON.stringify(demoKeyOptions())).not.toContain("sk_demo");
    const response = await signIn(signInRequest({ demoKeyId: admin.id }));
    expect(response.status).toBe(200);
  });
});

describe("GET and DELETE /api/session", () => {
  it("answers the summary with a session and 401 without one", async () => {
    const cookie = cookieFrom(await signIn(signInRequest({ apiKey: ADMIN_KEY })));
    const current = await currentSession(dashboardRequest("/api/session", { cookie }));
    expect(current.status).toBe(200);
    const text = await current.text();
    expect(text).not.toContain(ADMIN_KEY);
    expect(JSON.parse(text).session).toMatchObject({
      organizationId: "org_northwind",
      organization: { id: "org_northwind", name: "Northwind Outfitters" },
      stores: [{ url: "northwind-outfitters.myshopify.com", type: "shopify", currency: "USD" }],
    });
    expect((await currentSession(dashboardRequest("/api/session"))).status).toBe(401);
  });

  it("treats a tampered cookie as no session", async () => {
    const cookie = cookieFrom(await signIn(signInRequest({ apiKey: ADMIN_KEY })));
    const tampered = cookie.slice(0, -4) + (cookie.endsWith("AAAA") ? "BBBB" : "AAAA");
    expect((await currentSession(dashboardRequest("/api/session", { cookie: tampered }))).status).toBe(401);
  });

  it("signs out by clearing the cookie, and refuses a cross-site sign-out", async () => {
    const out = await signOut(dashboardRequest("/api/session", { method: "DELETE" }));
    expect(out.status).toBe(204);
    expect(out.headers.get("set-cookie")).toMatch(/^session=; .*Max-Age=0/);
    const crossSite = await signOut(dashboardRequest("/api/session", { method: "DELETE", headers: { origin: "https://evil.example" } }));
    expect(crossSite.status).toBe(403);
  });
});
