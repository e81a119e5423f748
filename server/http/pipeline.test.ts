import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ADMIN_KEY, callRoute, cookieFrom, dashboardRequest, US_STORE, useUpstream } from "@/test/harness";
import { demoUpstreamPerFile } from "@/test/demo-upstream";
import { captureLogLines } from "@/server/observability/log";
import { route } from "./pipeline";
import { productMetrics, productMetricsExport } from "@/server/routes/product-metrics";
import { proxyToUpstream } from "@/server/routes/proxy";
import { createSavedView } from "@/server/routes/saved-views";
import { signIn, signOut } from "@/server/routes/sign-in";

const upstream = demoUpstreamPerFile();
let cookie: string;
let client = 0;

function signInRequest(body: string, headers: Record<string, string> = {}) {
  return dashboardRequest("/api/session", {
    method: "POST",
    body,
    headers: { "content-type": "application/json", "x-dashboard-client-address": `10.7.0.${++client}`, ...headers },
  });
}

const logLines = captureLogLines;

// A fresh session for each test: signing out in one ends its session.
beforeEach(async () => {
  cookie = cookieFrom(await signIn(signInRequest(JSON.stringify({ apiKey: ADMIN_KEY }))));
});

describe("bodies are limited in bytes while they are read", () => {
  it("answers 413 in the Error shape for a sign-in body over 16 KB, declared or not", async () => {
    const big = JSON.stringify({ apiKey: "x".repeat(20 * 1024) });
    const declared = await signIn(signInRequest(big));
    expect(declared.status).toBe(413);
    expect(await declared.json()).toMatchObject({ code: "payload_too_large", requestId: expect.any(String) });
    // Sent as a stream without a length: counted as it arrives.
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let index = 0; index < 40; index++) controller.enqueue(new TextEncoder().encode("x".repeat(1024)));
        controller.close();
      },
    });
    const streamed = await signIn(
      new Request("http://localhost:3000/api/session", {
        method: "POST",
        body: chunks,
        duplex: "half",
        headers: { host: "localhost:3000", origin: "http://localhost:3000", "content-type": "application/json" },
      } as RequestInit),
    );
    expect(streamed.status).toBe(413);
  });

  it("counts bytes, not characters, for an action body (64 KB)", async () => {
    // 30,000 snowmen are 30,000 characters but 90,000 bytes.
    const body = JSON.stringify({ channel: "linkedin", assetIds: ["\u2603".repeat(30_000)] });
    expect(body.length).toBeLessThan(64 * 1024);
    const response = await proxyToUpstream(
      dashboardRequest(`/api/v1/ad-metrics/${US_STORE}/enrich`, {
        method: "POST",
        cookie,
        body,
        headers: { "content-type": "application/json" },
      }),
    );
    expect(response.status).toBe(413);
    expect(upstream.requestCounts().enrich ?? 0).toBe(0);
  });
});

describe("values that cannot go into a header", () => {
  it.each([
    ["apiKey", { apiKey: "sk_\u2603_key" }],
    ["apiKey", { apiKey: "sk_demo\r\nx-evil: 1" }],
    ["organizationId", { apiKey: ADMIN_KEY, organizationId: "org\r\nx-evil: 1" }],
    ["organizationId", { apiKey: ADMIN_KEY, organizationId: "org_\u2603" }],
  ])("answers 400 naming %s, without calling the upstream", async (field, body) => {
    const before = upstream.requestCounts().context ?? 0;
    const response = await signIn(signInRequest(JSON.stringify(body)));
    expect(response.status).toBe(400);
    expect((await response.json()).error).toContain(field);
    expect(upstream.requestCounts().context ?? 0).toBe(before);
  });
});

describe("malformed paths and unexpected exceptions", () => {
  it("answers 400 naming the parameter for a NUL in a path, a query or a body, before any database", async () => {
    const cases = [
      [
        `/api/stores/a%00b/product-metrics?startDate=2026-01-01&endDate=2026-01-02`,
        "GET",
        undefined,
        /path parameter storeUrl contains a NUL/,
      ],
      [
        `/api/stores/${US_STORE}/product-metrics?startDate=2026-01-01&endDate=2026-01-02&channel=a%00b`,
        "GET",
        undefined,
        /"channel" contains a NUL/,
      ],
      [`/api/stores/${US_STORE}/saved-views`, "POST", JSON.stringify({ name: "a\u0000b", search: "" }), /field name contains a NUL/],
    ] as const;
    for (const [path, method, body, message] of cases) {
      const handler = path.includes("saved-views") ? createSavedView : productMetrics;
      const response = await callRoute(
        handler,
        dashboardRequest(path, { method, cookie, body, headers: { "content-type": "application/json" } }),
      );
      expect(response.status, path).toBe(400);
      const answer = await response.json();
      expect(answer, path).toMatchObject({ code: "bad_request", requestId: expect.stringMatching(/^dash_/) });
      expect(answer.error, path).toMatch(message);
    }
  });

  it("answers 400 for a malformed proxy path", async () => {
    const response = await proxyToUpstream(dashboardRequest("/api/v1/pixels/%FF", { cookie }));
    expect(response.status).toBe(400);
    expect((await response.json()).requestId).toMatch(/^dash_/);
  });

  it("turns any exception into a logged 500 in the Error shape with a request id", async () => {
    const broken = route({ methods: ["GET"], path: "/broken", scope: "none", session: false }, async () => {
      throw new TypeError("boom");
    });
    let response!: Response;
    const lines = await logLines(async () => (response = await broken(dashboardRequest("/broken"))));
    expect(response.status).toBe(500);
    const body = await response.json();
    expect(body).toMatchObject({ code: "internal_error", error: expect.any(String), requestId: expect.any(String) });
    expect(lines.some((line) => line.msg === "unhandled exception" && line.requestId === body.requestId)).toBe(true);
    expect(lines.some((line) => line.msg === "request" && line.status === 500 && line.requestId === body.requestId)).toBe(true);
  });
});

describe("the date range", () => {
  it("refuses a range longer than two years and dates far outside any store's life", async () => {
    for (const range of ["startDate=0001-01-01&endDate=9999-12-31", "startDate=2020-01-01&endDate=2026-01-01"]) {
      const response = await callRoute(productMetrics, dashboardRequest(`/api/stores/${US_STORE}/product-metrics?${range}`, { cookie }));
      expect(response.status).toBe(400);
    }
    expect(upstream.requestCounts().products ?? 0).toBe(0);
  });
});

describe("the upstream asks to come back later", () => {
  it("passes Retry-After from an upstream 503 through the proxy", async () => {
    upstream.setFaults([{ route: "store-profile", errorStatus: 503, errorRate: 1, retryAfter: "7" }]);
    const response = await proxyToUpstream(dashboardRequest(`/api/v1/store-data/${US_STORE}`, { cookie }));
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("7");
  });
});

describe("the CSV export", () => {
  it("follows the organization named in its query", async () => {
    const response = await callRoute(
      productMetricsExport,
      dashboardRequest(
        `/api/stores/${US_STORE}/product-metrics/export?startDate=2026-01-01&endDate=2026-01-02&kind=products&organizationId=org_kumo`,
        {
          cookie,
        },
      ),
    );
    // The store belongs to another organization than the one named: the upstream refuses it.
    expect(response.status).toBe(403);
  });
});

describe("one log line for every route", () => {
  it("logs sign-in, a refused sign-in and sign-out with their request ids", async () => {
    let refused!: Response;
    const lines = await logLines(async () => {
      await signIn(signInRequest(JSON.stringify({ apiKey: ADMIN_KEY })));
      refused = await signIn(signInRequest(JSON.stringify({ apiKey: "sk_wrong_key_000" })));
      await signOut(dashboardRequest("/api/session", { method: "DELETE", cookie }));
    });
    const requests = lines.filter((line) => line.msg === "request");
    expect(requests.map((line) => [line.route, line.status])).toEqual([
      ["POST /api/session", 200],
      ["POST /api/session", 401],
      ["DELETE /api/session", 204],
    ]);
    const refusedBody = await refused.json();
    expect(requests[1]).toMatchObject({ requestId: refusedBody.dashboardRequestId, upstreamRequestId: refusedBody.requestId });
    expect(JSON.stringify(lines)).not.toContain(ADMIN_KEY);
  });

  it("logs a browser that left as 499, not as an upstream failure", async () => {
    upstream.setFaults([{ route: "store-profile", latencyMs: 500 }]);
    const controller = new AbortController();
    const request = new Request(dashboardRequest(`/api/v1/store-data/${US_STORE}`, { cookie }), { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const lines = await logLines(() => proxyToUpstream(request));
    expect(lines.find((line) => line.msg === "request")).toMatchObject({ status: 499, code: "client_closed" });
  });
});

describe("a shared read", () => {
  it("keeps going for the reader still connected when the other leaves", async () => {
    upstream.setFaults([{ route: "products", latencyMs: 300 }]);
    const query = `startDate=2026-02-01&endDate=2026-02-03&channel=${randomUUID()}`;
    const leaving = new AbortController();
    const first = callRoute(
      productMetrics,
      new Request(dashboardRequest(`/api/stores/${US_STORE}/product-metrics?${query}`, { cookie }), { signal: leaving.signal }),
    );
    const second = callRoute(productMetrics, dashboardRequest(`/api/stores/${US_STORE}/product-metrics?${query}`, { cookie }));
    setTimeout(() => leaving.abort(), 50);
    await first.catch(() => undefined);
    const response = await second;
    expect(response.status).toBe(200);
    const lines = (await response.text()).trim().split("\n");
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ type: "result" });
  });
});

describe("a deadline reached while rows are still arriving", () => {
  let stalling: Server;
  let baseUrl: string;
  beforeAll(async () => {
    // Context for sign-in, then a products body that starts and never ends.
    stalling = createServer((request, response) => {
      if (request.url?.startsWith("/v1/context")) {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(
          JSON.stringify({
            user: { id: "u", email: "a@example.com", emailVerified: true, name: "A", image: null },
            organizations: [
              {
                id: "org_1",
                name: "O",
                slug: "o",
                createdAt: "2026-01-01",
                role: "admin",
                stores: [
                  { id: "s", url: "shop.example", type: "shopify", currency: "USD", createdAt: "2026-01-01", updatedAt: "2026-01-01" },
                ],
              },
            ],
          }),
        );
        return;
      }
      response.writeHead(200, { "content-type": "application/json" });
      response.write("[");
    });
    await new Promise<void>((resolve) => stalling.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(stalling.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => {
    stalling.closeAllConnections();
    stalling.close();
  });

  it("says the range took too long (504, try a shorter range)", async () => {
    useUpstream(baseUrl, { UPSTREAM_TIMEOUT_MS: "300" });
    const stalledCookie = cookieFrom(await signIn(signInRequest(JSON.stringify({ apiKey: "sk_any_key" }))));
    const response = await callRoute(
      productMetrics,
      dashboardRequest(`/api/stores/shop.example/product-metrics?startDate=2026-01-01&endDate=2026-01-31`, { cookie: stalledCookie }),
    );
    const last = JSON.parse((await response.text()).trim().split("\n").at(-1)!);
    expect(last).toMatchObject({ type: "error", status: 504, code: "range_too_long" });
    expect(last.error).toMatch(/shorter range/);
  });
});
