import { request as httpRequest } from "node:http";
import { E2E_PORT } from "../playwright.config";
import { demo, US_STORE } from "./support/demo";
import { expect, test } from "./support/fixtures";

/** Sends a path byte for byte, as a hostile client would, without any URL normalization. */
function rawGet(path: string, cookie: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: "127.0.0.1", port: E2E_PORT, path, method: "GET", headers: { cookie, host: `localhost:${E2E_PORT}` } },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on("error", reject);
    request.end();
  });
}

test("every page carries the security headers", async ({ page }) => {
  const response = await page.goto("/sign-in");
  const headers = response!.headers();
  const csp = headers["content-security-policy"]!;
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  expect(csp).not.toContain("unsafe-eval");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(headers["permissions-policy"]).toContain("camera=()");
});

test("a cross-origin DELETE is refused and removes nothing", async ({ signedInPage: page }) => {
  const before = await demo.state();
  const pixel = before.pixels[US_STORE]![0]!;
  const response = await page.request.delete(`/api/v1/pixels/${US_STORE}/${pixel.id}`, { headers: { origin: "https://evil.example" } });
  expect(response.status()).toBe(403);
  expect((await response.json()).code).toBe("cross_site");
  const after = await demo.state();
  expect(after.pixels[US_STORE]!.map((p) => p.id)).toContain(pixel.id);
});

test("traversal paths are refused by the dashboard and never reach the upstream", async ({ signedInPage: page }) => {
  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  // Let the page's own requests finish, then leave it, so that none of them lands between the two readings
  // (a request already sent reaches the upstream even after the page is gone).
  await page.waitForLoadState("networkidle");
  await page.goto("about:blank");
  const before = await demo.state();
  const paths = [
    `/api/v1/store-data/${US_STORE}/..%2F..%2Fcontext`,
    "/api/v1/store-data/%2e%2e%2f%2e%2e%2fadmin",
    "/api/v1/store-data/..%5C..%5Cadmin",
    "/api/v1/store-data/%252e%252e/catalogs",
    "/api/v1/store-data/a%00b",
    "/api/v1//context",
    "/api/v1/admin",
  ];
  for (const path of paths) {
    const { status, body } = await rawGet(path, cookie);
    // 308: Next.js itself folds `//` into `/` by redirecting, before any route runs.
    expect([308, 400, 404], path).toContain(status);
    if (status === 404 && body.startsWith("{")) expect(JSON.parse(body).error, path).toEqual(expect.any(String));
  }
  const after = await demo.state();
  expect(after.requestCounts).toEqual(before.requestCounts);
});
