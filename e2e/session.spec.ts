import { E2E_PORT } from "../playwright.config";
import { demo, KEYS, US_STORE } from "./support/demo";
import { expect, nextClientAddress, signInWithKey, test } from "./support/fixtures";

/** Where a sign-in without a page asked for lands: the key's one store opens on its numbers. */
const US_OVERVIEW = new RegExp(`/stores/${US_STORE.replace(/\./g, "\\.")}$`);

test("an admin signs in and sees the context and the store pages", async ({ page }) => {
  await signInWithKey(page, KEYS.admin);
  await expect(page).toHaveURL(/\/context$/);
  await expect(page.getByRole("heading", { name: "Organizations and stores" })).toBeVisible();
  await expect(page.getByText("Maya Chen").first()).toBeVisible();
  await expect(page.getByRole("heading", { name: /Northwind Outfitters/ })).toBeVisible();
  await expect(page.getByText("verified", { exact: true })).toBeVisible();

  await page.getByRole("link", { name: US_STORE }).click();
  await expect(page).toHaveURL(US_OVERVIEW);
  const profile = page.getByRole("region", { name: "Store profile" }).or(page.locator("section", { hasText: "Store profile" }));
  await expect(profile.getByText("America/New_York")).toBeVisible();
  await expect(profile.getByText("USD")).toBeVisible();
  await expect(page.getByRole("list", { name: "Catalog connections" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Store sections" }).getByRole("link", { name: "Product metrics" })).toBeVisible();
});

test("a store without catalog connections shows the empty state", async ({ page }) => {
  await signInWithKey(page, "sk_demo_admin_kumo_au_e81d4c6b0a27");
  await expect(page).toHaveURL(/\/context$/);
  await page.getByRole("link", { name: "kumo-living-au.myshopify.com" }).click();
  await expect(page.getByText("No catalog connections", { exact: true })).toBeVisible();
});

for (const [label, key, reason] of [
  ["an expired key", KEYS.expired, /has expired/],
  ["a revoked key", KEYS.revoked, /has been revoked/],
  ["a legacy key without store scope", KEYS.legacy, /older key that is not tied to a store/],
  ["a wrong key", "sk_this_is_not_a_key", /not valid/],
] as const) {
  test(`${label} is refused with its reason`, async ({ page }) => {
    await signInWithKey(page, key);
    const alert = page.getByRole("alert").filter({ hasText: reason });
    await expect(alert).toBeVisible();
    await expect(alert.getByTestId("request-id")).not.toBeEmpty();
    await expect(page).toHaveURL(/\/sign-in/);
  });
}

test("the eleventh failed sign-in in a minute is refused with a time to wait", async ({ page }) => {
  const client = nextClientAddress();
  await page.setExtraHTTPHeaders({ "x-forwarded-for": client });
  for (let attempt = 1; attempt <= 10; attempt++) {
    const response = await page.request.post("/api/session", {
      data: { apiKey: `sk_wrong_${attempt}` },
      headers: { origin: `http://localhost:${E2E_PORT}`, "x-forwarded-for": client },
    });
    expect(response.status()).toBe(401);
  }
  await signInWithKey(page, KEYS.admin);
  await expect(page.getByRole("alert").filter({ hasText: /Too many failed sign-in attempts\. Try again in \d+ s\./ })).toBeVisible();
  await expect(page).toHaveURL(/\/sign-in/);
});

test("signing out ends the session", async ({ signedInPage: page }) => {
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in\?reason=signed_out/);
  await expect(page.getByText("You have signed out.")).toBeVisible();
  await page.goto("/context");
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fcontext/);
});

test("after sign-in the user returns to the page asked for, never to another site", async ({ page }) => {
  await page.goto(`/stores/${US_STORE}`);
  await expect(page).toHaveURL(/\/sign-in\?next=/);
  await page.getByLabel("API key").fill(KEYS.admin);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(US_OVERVIEW);

  // Off the store's page first: with its cookie gone, the page's own requests are refused and it goes to the
  // sign-in page by itself, which would abort the sign-in navigation below.
  await page.goto("about:blank");
  await page.context().clearCookies();
  await signInWithKey(page, KEYS.admin, "//evil.example/steal");
  // Refused: the home instead, which opens on the key's one store, on this site.
  await expect(page).toHaveURL(US_OVERVIEW);
  expect(new URL(page.url()).host).toBe(`localhost:${E2E_PORT}`);
});

test("a key revoked mid-session ends the session and says why on the sign-in page", async ({ signedInPage: page }) => {
  await demo.revoke(KEYS.admin);
  // A call of the page already open may notice first and lead to sign-in itself.
  await page.goto(`/stores/${US_STORE}`).catch(() => undefined);
  await expect(page).toHaveURL(/\/sign-in\?reason=key_revoked&next=/);
  await expect(page.getByText("Your session ended. This API key has been revoked.")).toBeVisible();
  // The session cookie is gone: the dashboard pages send the user to sign in, still saying why.
  await page.goto("/context");
  await expect(page).toHaveURL(/\/sign-in\?reason=key_revoked&next=%2Fcontext/);
});

test("a demo key can be chosen by its label, and opens on its store's last 7 days", async ({ page }) => {
  await page.goto("/sign-in");
  await page.getByRole("button", { name: /Marketer — Northwind US/ }).click();
  await expect(page).toHaveURL(US_OVERVIEW);
  await expect(page.getByText("Leo Park").first()).toBeVisible();
  await expect(page.getByRole("heading", { name: "Last 7 days" })).toBeVisible();
  await expect(page.getByTestId("kpi-Revenue")).toHaveText(/^\$[\d,]+\.\d{2}$/);
});

test("an upstream 500 shows the error panel with the request id", async ({ signedInPage: page }) => {
  await demo.setFaults([{ route: "store-profile", errorStatus: 500, errorRate: 1 }]);
  await page.goto(`/stores/${US_STORE}`);
  const panel = page.getByRole("alert").filter({ hasText: "The analytics service had a problem" }).first();
  await expect(panel).toBeVisible();
  await expect(panel.getByTestId("request-id")).toHaveText(/\S+/);
});

test("an upstream timeout shows the error panel with the request id", async ({ signedInPage: page }) => {
  await demo.setFaults([{ route: "catalogs", latencyMs: 6_000 }]);
  await page.goto(`/stores/${US_STORE}`);
  const panel = page.getByRole("alert").filter({ hasText: "too slow" });
  await expect(panel).toBeVisible({ timeout: 15_000 });
  await expect(panel.getByTestId("request-id")).toHaveText(/^dash_/);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("sign-in posts the form, then a 303 leads to the page asked for; the key is in no URL", async ({ page }) => {
    const urls: string[] = [];
    page.on("request", (request) => urls.push(request.url()));
    await page.goto("/sign-in?next=%2Factivity");
    await page.getByLabel("API key").fill(KEYS.admin);
    const [post] = await Promise.all([
      page.waitForRequest((request) => request.url().endsWith("/api/session")),
      page.getByRole("button", { name: "Sign in", exact: true }).click(),
    ]);
    expect(post.method()).toBe("POST");
    await expect(page).toHaveURL(/\/activity$/);
    await expect(page.getByRole("heading", { name: "Activity", level: 1 })).toBeVisible();
    // The More menu needs scripts: without them its pages are plain links in the header.
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Sign-ins" })).toBeVisible();
    expect(urls.join("\n")).not.toContain(KEYS.admin);
    expect(urls.join("\n")).not.toContain("apiKey");
  });

  test("a refused key comes back to the sign-in page with its reason and request id", async ({ page }) => {
    await page.goto("/sign-in");
    await page.getByLabel("API key").fill(KEYS.expired);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page).toHaveURL(/\/sign-in\?error=key_expired/);
    await expect(page.getByRole("alert")).toContainText("expired");
    await expect(page.getByTestId("request-id")).toHaveText(/\S+/);
    expect(page.url()).not.toContain(KEYS.expired);
  });

  test("a demo key button signs in as a plain form post too", async ({ page }) => {
    await page.goto("/sign-in");
    await page.getByRole("button", { name: /Admin — Northwind US/ }).click();
    await expect(page).toHaveURL(US_OVERVIEW);
  });
});
