import { KEYS, US_STORE } from "./support/demo";
import { expect, signInWithKey, test } from "./support/fixtures";
import { TRACKING, usPixels } from "./support/actions";

/** Issue 16, findings 5 and 9: upstream names and values read as words, a store out of reach, Escape, keys. */

test("catalog cards label the known fields, show a status badge with its error in words, and keep the rest under Other details", async ({
  page,
}) => {
  await signInWithKey(page, KEYS.admin, `/stores/${US_STORE}`);
  const cards = page.getByTestId("catalog-card");
  await expect(cards).toHaveCount(3);
  const google = cards.filter({ has: page.getByRole("heading", { name: "Google Merchant Center" }) });
  await expect(google.getByText("Active", { exact: true })).toBeVisible();
  for (const label of ["Products", "Last synced", "Feed", "Country"])
    await expect(google.locator("dt", { hasText: new RegExp(`^${label}$`) })).toBeVisible();
  // Its date and time in the store's zone, then how long ago in words ("3 hours ago", "last year").
  await expect(google.locator("dd time").first()).toHaveText(/^\w{3} \d{1,2}, \d{4}, .* (EST|EDT) \((.* ago|last .*|yesterday)\)$/);
  await expect(google.getByRole("link", { name: /^https:\/\/.*\.xml$/ })).toBeVisible();
  await expect(google.getByText("United States (US)")).toBeVisible();
  await expect(google.getByRole("heading", { name: "Other details" })).toBeVisible();
  const failing = cards.filter({ has: page.getByRole("heading", { name: "TikTok catalog" }) });
  await expect(failing.getByText("Error", { exact: true })).toBeVisible();
  await expect(failing.getByText(/The last sync failed: Feed rejected: \d+ products are missing a GTIN/)).toBeVisible();
  for (const raw of ["productCount", "lastSyncedAt", "feedUrl", "errorMessage", "google_merchant_center"])
    await expect(page.getByText(raw, { exact: true })).toHaveCount(0);
});

test("Sign-ins names a loopback address 'this computer'", async ({ page }) => {
  await page.setExtraHTTPHeaders({ "x-forwarded-for": "::ffff:127.0.0.1" });
  await signInWithKey(page, KEYS.admin, "/sign-ins");
  const current = page.getByRole("listitem").filter({ hasText: "This device" });
  await expect(current.getByText("this computer")).toBeVisible();
  await expect(page.getByText("::ffff:127.0.0.1", { exact: true })).toHaveCount(0);
});

test("a store outside the key's reach answers 404 with one message, no store tabs and no retry", async ({ page }) => {
  await signInWithKey(page, KEYS.admin);
  await expect(page).toHaveURL(/\/context$/);
  for (const path of ["/stores/kumo-living.jp", "/stores/kumo-living.jp/products", "/stores/no-such-store.example/tracking"]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { name: "Store not found", level: 1 })).toBeVisible();
    await expect(page.getByText(/not among the stores your API key can reach/)).toHaveCount(1);
    await expect(page.getByRole("button", { name: /try again/i })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Products" })).toHaveCount(0);
  }
  // A store within reach still opens.
  expect((await page.goto(`/stores/${US_STORE}`))?.status()).toBe(200);
});

test("Escape closes the tracking details and gives focus back to the button that opened them", async ({ page }) => {
  const [pixel] = await usPixels();
  await signInWithKey(page, KEYS.admin, TRACKING);
  const details = page.getByRole("button", { name: `Details of ${pixel!.name}` });
  await details.click();
  await expect(page.getByRole("region", { name: `Details of ${pixel!.name}` })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("region", { name: `Details of ${pixel!.name}` })).toHaveCount(0);
  await expect(details).toBeFocused();
});

test("an expired key's message says where a new key is made, in plain words", async ({ page }) => {
  await signInWithKey(page, KEYS.expired);
  const alert = page.getByRole("alert").filter({ hasText: /has expired/ });
  await expect(alert).toContainText("open Settings, then MCP, and under “Access key fallback”");
  await expect(alert).not.toContainText("(MCP, Access key fallback)");
});
