import { randomUUID } from "node:crypto";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { signIn } from "./sign-in";
import { ADMIN_KEY, cookieFrom, dashboardRequest, MARKETER_KEY, startRecordingUpstream, US_STORE, useUpstream } from "@/test/harness";
import { demoUpstreamPerFile } from "@/test/demo-upstream";
import { captureLogLines } from "@/server/observability/log";
import { proxyToUpstream } from "./proxy";

const upstream = demoUpstreamPerFile();
let adminCookie: string;

async function cookieFor(apiKey: string) {
  return cookieFrom(await signIn(dashboardRequest("/api/session", { method: "POST", body: JSON.stringify({ apiKey }) })));
}

const totalRequests = () => Object.values(upstream.requestCounts()).reduce((sum, count) => sum + count, 0);

// A fresh session for each test: an upstream 401 in one ends every session of its key.
beforeEach(async () => {
  adminCookie = await cookieFor(ADMIN_KEY);
});

describe("the /api/v1 proxy", () => {
  it("forwards an allowed GET and streams back status, body, content-type and request id only", async () => {
    const response = await proxyToUpstream(dashboardRequest(`/api/v1/store-data/${US_STORE}`, { cookie: adminCookie }));
    expect(response.status).toBe(200);
    expect((await response.json()).url).toBe(US_STORE);
    expect(response.headers.get("x-request-id")).toMatch(/\S+/);
    expect([...response.headers.keys()].sort()).toEqual(["cache-control", "content-type", "x-dashboard-request-id", "x-request-id"]);
  });

  it("answers 401 without a session, and for a tampered cookie, without calling the upstream", async () => {
    const before = totalRequests();
    expect((await proxyToUpstream(dashboardRequest("/api/v1/context"))).status).toBe(401);
    const tampered = adminCookie.slice(0, -3) + "abc";
    expect((await proxyToUpstream(dashboardRequest("/api/v1/context", { cookie: tampered }))).status).toBe(401);
    expect(totalRequests()).toBe(before);
  });

  it("answers 404 for paths outside the contract without calling the upstream", async () => {
    const before = totalRequests();
    for (const path of [
      "/api/v1/admin/keys",
      "/api/v1/store-data",
      "/api/v1/analytics-sql/x/query",
      "/api/v1/store-data/a/catalogs/extra",
    ]) {
      const response = await proxyToUpstream(dashboardRequest(path, { cookie: adminCookie }));
      expect(response.status, path).toBe(404);
      expect((await response.json()).error).toEqual(expect.any(String));
    }
    expect(totalRequests()).toBe(before);
  });

  it("answers 405 with Allow for a contract path and another method", async () => {
    const response = await proxyToUpstream(dashboardRequest("/api/v1/context", { method: "DELETE", cookie: adminCookie }));
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET");
  });

  it("refuses traversal and encoding tricks on the raw path", async () => {
    const recorder = await startRecordingUpstream(() => ({ status: 200, body: "{}" }));
    useUpstream(recorder.baseUrl);
    try {
      const tricks = [
        `/api/v1/store-data/${US_STORE}%2F..%2F..%2Fadmin`,
        "/api/v1/store-data/%2e%2e",
        "/api/v1/store-data/..%5Cadmin",
        "/api/v1/store-data/a%00b",
        "/api/v1/store-data/%252e%252e/catalogs",
        "/api/v1/pixels/a%2Fb/c",
        "/api/v1//context",
      ];
      for (const path of tricks) {
        // Request() would normalize the path; hand the raw text to the proxy as a server receives it.
        const request = dashboardRequest("/api/v1/context", { cookie: adminCookie });
        Object.defineProperty(request, "url", { value: `http://localhost:3000${path}` });
        const response = await proxyToUpstream(request);
        expect([404, 405], path).toContain(response.status);
      }
      expect(recorder.received.filter((request) => !request.url.startsWith("/v1/context"))).toEqual([]);
    } finally {
      await recorder.close();
    }
  });

  it("validates the query with the contract's schema and forwards only documented parameters", async () => {
    const base = `/api/v1/ad-metrics/${US_STORE}/products`;
    const cases = [
      `${base}?startDate=2026-01-01`,
      `${base}?startDate=2026-02-30&endDate=2026-03-01`,
      `${base}?startDate=2026-03-02&endDate=2026-03-01`,
      `${base}?startDate=2026-03-01&endDate=2026-03-01&dimension_source=last_touch`,
      `${base}?startDate=2026-03-01&endDate=2026-03-01&debug=1`,
      `${base}?startDate=2026-03-01&endDate=2026-03-01&channel=google&channel=facebook`,
      `${base}?startDate=2026-03-01&endDate=2026-03-01&filterCountry=US,,DE`,
      `/api/v1/store-data/${US_STORE}?x=1`,
    ];
    for (const path of cases) {
      const response = await proxyToUpstream(dashboardRequest(path, { cookie: adminCookie }));
      expect(response.status, path).toBe(400);
      const body = await response.json();
      expect(body.error, path).toEqual(expect.any(String));
      expect(body.requestId, path).toEqual(expect.any(String));
    }
  });

  it("sends upstream only the key, organization, content-type, accept and request id; never cookies or Authorization", async () => {
    const recorder = await startRecordingUpstream(() => ({
      status: 200,
      headers: { "set-cookie": "upstream=1", "x-internal-trace": "secret", "x-request-id": "req_recorded" },
      body: JSON.stringify({ id: "s", url: "s", type: "shopify", currency: "USD", timezone: "UTC" }),
    }));
    useUpstream(recorder.baseUrl);
    try {
      const response = await proxyToUpstream(
        dashboardRequest(`/api/v1/store-data/${US_STORE}`, {
          cookie: `${adminCookie}; other=browser-cookie`,
          headers: {
            authorization: "Bearer browser-token",
            "x-service-organization-id": "org_northwind",
            "x-forwarded-host": "evil.example",
          },
        }),
      );
      expect(response.status).toBe(200);
      expect(response.headers.get("set-cookie")).toBeNull();
      expect(response.headers.get("x-internal-trace")).toBeNull();
      expect(response.headers.get("x-request-id")).toBe("req_recorded");
      const sent = recorder.received[0]!.headers;
      expect(sent["x-api-key"]).toBe(ADMIN_KEY);
      expect(sent["x-service-organization-id"]).toBe("org_northwind");
      expect(sent["x-request-id"]).toMatch(/^dash_/);
      expect(sent.cookie).toBeUndefined();
      expect(sent.authorization).toBeUndefined();
      expect(sent["x-forwarded-host"]).toBeUndefined();
    } finally {
      await recorder.close();
    }
  });

  it("refuses cross-site mutations without calling the upstream", async () => {
    const before = totalRequests();
    for (const origin of ["https://evil.example", "null"]) {
      const response = await proxyToUpstream(
        dashboardRequest(`/api/v1/pixels/${US_STORE}/px_1`, { method: "DELETE", cookie: adminCookie, headers: { origin } }),
      );
      expect(response.status, origin).toBe(403);
      expect((await response.json()).code).toBe("cross_site");
    }
    const crossSiteFetch = await proxyToUpstream(
      dashboardRequest(`/api/v1/ad-metrics/${US_STORE}/enrich`, {
        method: "POST",
        cookie: adminCookie,
        body: JSON.stringify({ channel: "google", assetIds: ["1"] }),
        headers: { origin: "http://localhost:3000", "sec-fetch-site": "cross-site" },
      }),
    );
    expect(crossSiteFetch.status).toBe(403);
    expect(totalRequests()).toBe(before);
  });

  it("validates a POST body strictly", async () => {
    const enrich = `/api/v1/ad-metrics/${US_STORE}/enrich`;
    for (const body of [
      "not json",
      JSON.stringify({ channel: "google" }),
      JSON.stringify({ channel: "google", assetIds: ["1"], extra: true }),
    ]) {
      const response = await proxyToUpstream(dashboardRequest(enrich, { method: "POST", cookie: adminCookie, body }));
      expect(response.status, body).toBe(400);
    }
  });

  it("passes an upstream 403 through for a key without the permission", async () => {
    const cookie = await cookieFor(MARKETER_KEY);
    const pixels = await (await proxyToUpstream(dashboardRequest(`/api/v1/pixels/${US_STORE}`, { cookie }))).json();
    const response = await proxyToUpstream(
      dashboardRequest(`/api/v1/pixels/${US_STORE}/${pixels.pixels[0].id}`, {
        method: "DELETE",
        cookie,
        headers: { "idempotency-key": randomUUID() },
      }),
    );
    expect(response.status).toBe(403);
    expect((await response.json()).error).toEqual(expect.any(String));
  });

  it("ends the session on an upstream 401, saying why", async () => {
    const recorder = await startRecordingUpstream(() => ({ status: 401, body: JSON.stringify({ error: "API key has been revoked" }) }));
    useUpstream(recorder.baseUrl);
    try {
      const response = await proxyToUpstream(dashboardRequest("/api/v1/context", { cookie: adminCookie }));
      expect(response.status).toBe(401);
      expect((await response.json()).code).toBe("key_revoked");
      const cookies = response.headers.getSetCookie();
      expect(cookies[0]).toMatch(/^session=; .*Max-Age=0/);
      // The parts a key ring's seal may take are cleared too.
      expect(cookies.filter((cookie) => /^session\.\d=; .*Max-Age=0/.test(cookie)).length).toBeGreaterThan(0);
      const ended = cookies.find((cookie) => cookie.startsWith("session_ended="));
      expect(ended).toMatch(/^session_ended=key_revoked; Path=\/; HttpOnly; SameSite=Lax; Max-Age=300$/);

      // A call that was already on its way arrives without a session, and still learns why.
      const inFlight = await proxyToUpstream(dashboardRequest(`/api/v1/store-data/${US_STORE}`, { cookie: ended!.split(";")[0] }));
      expect(inFlight.status).toBe(401);
      expect((await inFlight.json()).code).toBe("key_revoked");
    } finally {
      await recorder.close();
    }
  });

  it("answers 504 with a request id when the upstream is slower than UPSTREAM_TIMEOUT_MS", async () => {
    vi.stubEnv("UPSTREAM_TIMEOUT_MS", "300");
    upstream.setFaults([{ route: "store-profile", latencyMs: 2_000 }]);
    const response = await proxyToUpstream(dashboardRequest(`/api/v1/store-data/${US_STORE}`, { cookie: adminCookie }));
    expect(response.status).toBe(504);
    const body = await response.json();
    expect(body.code).toBe("upstream_timeout");
    expect(body.requestId).toMatch(/\S/);
  });

  it("answers 502 when the upstream cannot be reached", async () => {
    useUpstream("http://127.0.0.1:9/v1");
    const response = await proxyToUpstream(dashboardRequest("/api/v1/context", { cookie: adminCookie }));
    expect(response.status).toBe(502);
    expect((await response.json()).code).toBe("upstream_unavailable");
  });

  it("retries a GET once after a 503, and never retries a mutation", async () => {
    upstream.setFaults([{ route: "store-profile", errorStatus: 503, errorRate: 1, retryAfter: "0", times: 1 }]);
    const get = await proxyToUpstream(dashboardRequest(`/api/v1/store-data/${US_STORE}`, { cookie: adminCookie }));
    expect(get.status).toBe(200);
    expect(upstream.requestCounts()["store-profile"]).toBe(2);

    upstream.setFaults([{ route: "enrich", errorStatus: 503, errorRate: 1, times: 1 }]);
    const post = await proxyToUpstream(
      dashboardRequest(`/api/v1/ad-metrics/${US_STORE}/enrich`, {
        method: "POST",
        cookie: adminCookie,
        body: JSON.stringify({ channel: "google", assetIds: ["1"] }),
      }),
    );
    expect(post.status).toBe(503);
    expect(upstream.requestCounts().enrich).toBe(1);
  });

  it("writes one JSON log line per request, with the route template and never the key", async () => {
    const parsed = await captureLogLines(async () => {
      await proxyToUpstream(dashboardRequest(`/api/v1/store-data/${US_STORE}`, { cookie: adminCookie }));
      await proxyToUpstream(dashboardRequest("/api/v1/nope", { cookie: adminCookie }));
    });
    {
      const lines = parsed.map((line) => JSON.stringify(line));
      expect(parsed.map((line) => line.msg)).toEqual(["request", "request"]);
      const first = parsed[0]!;
      expect(first).toMatchObject({
        method: "GET",
        route: "GET /store-data/{storeUrl}",
        status: 200,
        requestId: expect.stringMatching(/^dash_/),
      });
      expect(first.durationMs).toEqual(expect.any(Number));
      for (const line of lines) {
        expect(line).not.toContain(ADMIN_KEY);
        expect(line).not.toContain(adminCookie.slice(8, 40));
      }
    }
  });
});
