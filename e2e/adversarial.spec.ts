import { request as httpRequest } from "node:http";
import type { APIRequestContext } from "@playwright/test";
import { E2E_PORT } from "../playwright.config";
import { demo, KEYS, US_STORE } from "./support/demo";
import { expect, nextClientAddress, test } from "./support/fixtures";

/**
 * Hostile requests over real HTTP against the production build: every case gets a clear
 * answer in the Error shape (or a safe redirect), and nothing reaches the upstream that the
 * contract does not allow.
 */

const ORIGIN = `http://localhost:${E2E_PORT}`;

/** Sends a request byte for byte, without any URL normalization. */
function raw(
  method: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: "127.0.0.1", port: E2E_PORT, path, method, headers: { host: `localhost:${E2E_PORT}`, ...headers } },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      },
    );
    request.on("error", reject);
    request.end();
  });
}

async function signedInCookie(request: APIRequestContext): Promise<string> {
  const response = await request.post("/api/session", {
    data: { apiKey: KEYS.admin },
    headers: { origin: ORIGIN, "x-forwarded-for": nextClientAddress() },
  });
  expect(response.status()).toBe(200);
  return response.headers()["set-cookie"]!.split(";")[0]!;
}

const openRedirects = [
  "%2F.%2F%2Fevil.com",
  "/%2e%2e//evil.com",
  "/.//evil.com",
  "//evil.com",
  "///evil.com",
  "/%2F%2Fevil.com",
  "/%5Cevil.com",
  "/\\evil.com",
  "https://evil.com",
  "javascript:alert(1)",
  "/%09/evil.com",
  "/%0d%0aLocation:%20https://evil.com",
];

test.describe("sign-in posted as a plain form", () => {
  for (const next of openRedirects) {
    test(`never redirects off the site: next=${next}`, async ({ request }) => {
      const response = await request.post("/api/session", {
        form: { apiKey: KEYS.admin, next },
        headers: { origin: ORIGIN, "x-forwarded-for": nextClientAddress() },
        maxRedirects: 0,
      });
      expect(response.status()).toBe(303);
      const location = response.headers().location!;
      expect(location).toMatch(/^\/(?![/\\])/);
      expect(new URL(location, ORIGIN).origin).toBe(ORIGIN);
    });
  }

  test("the sign-in page sends a signed-in visitor only to a same-site path", async ({ request }) => {
    const cookie = await signedInCookie(request);
    for (const next of ["%2F.%2F%2Fevil.com", "/%2e%2e//evil.com"]) {
      const { status, headers } = await raw("GET", `/sign-in?next=${next}`, { cookie });
      expect([303, 307, 308]).toContain(status);
      expect(String(headers.location)).toMatch(/^\/(?![/\\])/);
    }
  });

  test("a refused key comes back to the sign-in page with its reason and request id, never the key", async ({ request }) => {
    const response = await request.post("/api/session", {
      form: { apiKey: KEYS.revoked, next: "/activity" },
      headers: { origin: ORIGIN, "x-forwarded-for": nextClientAddress() },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(303);
    const location = response.headers().location!;
    expect(location).toMatch(/^\/sign-in\?error=key_revoked&requestId=[^&]+&next=%2Factivity$/);
    expect(location).not.toContain(KEYS.revoked);
  });
});

test.describe("bodies, paths and values", () => {
  test("a 20 MB sign-in body is refused with 413 in the Error shape", async ({ request }) => {
    const response = await request.post("/api/session", {
      data: JSON.stringify({ apiKey: "x".repeat(20 * 1024 * 1024) }),
      headers: { origin: ORIGIN, "content-type": "application/json", "x-forwarded-for": nextClientAddress() },
    });
    expect(response.status()).toBe(413);
    expect(await response.json()).toMatchObject({ code: "payload_too_large", requestId: expect.any(String) });
  });

  test("an action body over 64 KB in bytes is refused with 413", async ({ request }) => {
    const cookie = await signedInCookie(request);
    const response = await request.post(`/api/v1/ad-metrics/${US_STORE}/enrich`, {
      data: JSON.stringify({ channel: "linkedin", assetIds: ["\u2603".repeat(30_000)] }),
      headers: { origin: ORIGIN, cookie, "content-type": "application/json" },
    });
    expect(response.status()).toBe(413);
  });

  for (const [label, body] of [
    ["a key with a non-ASCII character", { apiKey: "sk_\u2603" }],
    ["a key with CR/LF", { apiKey: "sk_a\r\nx-injected: 1" }],
    ["an organization with CR/LF", { apiKey: KEYS.admin, organizationId: "org\r\nx: 1" }],
  ] as const) {
    test(`${label} is a 400 naming the field`, async ({ request }) => {
      const response = await request.post("/api/session", {
        data: body,
        headers: { origin: ORIGIN, "x-forwarded-for": nextClientAddress() },
      });
      expect(response.status()).toBe(400);
      expect((await response.json()).error).toMatch("apiKey" in body && Object.keys(body).length === 1 ? /apiKey/ : /organizationId/);
    });
  }

  for (const path of [
    "/api/v1/pixels/%FF",
    `/api/v1/pixels/${US_STORE}/%FF`,
    "/api/stores/%FF/product-metrics?startDate=2026-01-01&endDate=2026-01-02",
    "/stores/%FF/products",
  ]) {
    test(`a malformed path segment is a 400 with a request id: ${path}`, async ({ request }) => {
      const cookie = await signedInCookie(request);
      const { status, body } = await raw("GET", path, { cookie });
      expect(status).toBe(400);
      if (path.startsWith("/api/")) expect(JSON.parse(body)).toMatchObject({ error: expect.any(String), requestId: expect.any(String) });
    });
  }

  test("a dot segment encoded in any case is refused, never resolved", async ({ request }) => {
    const cookie = await signedInCookie(request);
    const before = await demo.state();
    for (const path of ["/api/v1/pixels/%2E%2e/context", "/api/v1/pixels/%2e%2E/context", "/api/v1/store-data/%2E/catalogs"]) {
      const { status } = await raw("GET", path, { cookie });
      expect([400, 404], path).toContain(status);
    }
    expect((await demo.state()).requestCounts.context ?? 0).toBe(before.requestCounts.context ?? 0);
  });

  test("a range with no upper bound is refused with 400", async ({ request }) => {
    const cookie = await signedInCookie(request);
    const response = await request.get(`/api/stores/${US_STORE}/product-metrics?startDate=0001-01-01&endDate=9999-12-31`, {
      headers: { cookie },
    });
    expect(response.status()).toBe(400);
  });

  test("a repeated query parameter is a 400", async ({ request }) => {
    const cookie = await signedInCookie(request);
    const response = await request.get(
      `/api/v1/ad-metrics/${US_STORE}/products?startDate=2026-01-01&startDate=2026-01-02&endDate=2026-01-03`,
      {
        headers: { cookie },
      },
    );
    expect(response.status()).toBe(400);
  });

  test("a tampered cookie is no session", async ({ request }) => {
    const cookie = await signedInCookie(request);
    const response = await request.get("/api/session", { headers: { cookie: `${cookie.slice(0, -4)}AAAA` } });
    expect(response.status()).toBe(401);
  });

  test("Retry-After from an upstream 503 reaches the browser", async ({ request }) => {
    const cookie = await signedInCookie(request);
    await demo.setFaults([{ route: "store-profile", errorStatus: 503, errorRate: 1, retryAfter: "9" }]);
    const response = await request.get(`/api/v1/store-data/${US_STORE}`, { headers: { cookie } });
    expect(response.status()).toBe(503);
    expect(response.headers()["retry-after"]).toBe("9");
  });

  for (const [method, path] of [
    ["POST", "/api/session"],
    ["DELETE", "/api/session"],
    ["DELETE", `/api/v1/pixels/${US_STORE}/px_1`],
    ["POST", `/api/v1/platform/${US_STORE}/actions/clone-linkedin-campaign`],
  ] as const) {
    test(`a cross-site ${method} ${path} is refused`, async ({ request }) => {
      const cookie = await signedInCookie(request);
      const response = await request.fetch(path, {
        method,
        headers: { cookie, origin: "https://evil.example", "content-type": "application/json" },
        data: "{}",
      });
      expect(response.status()).toBe(403);
      expect((await response.json()).code).toBe("cross_site");
    });
  }
});
