import type { Browser, BrowserContext, Page } from "@playwright/test";
import { KEYS } from "./support/demo";
import { expect, nextClientAddress, signInWithKey, test } from "./support/fixtures";

/** A browser of its own (its own cookies), signed in with the admin key. */
async function signedInBrowser(browser: Browser, userAgent: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ userAgent, extraHTTPHeaders: { "x-forwarded-for": nextClientAddress() } });
  const page = await context.newPage();
  await signInWithKey(page, KEYS.admin);
  await expect(page).toHaveURL(/\/context$/);
  return { context, page };
}

const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
const SAFARI_IOS =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";

test("a session cookie copied before sign-out is refused after it, everywhere", async ({ signedInPage: page, browser }) => {
  const copied = (await page.context().cookies()).filter((cookie) => cookie.name.endsWith("session"));
  expect(copied).toHaveLength(1);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in\?reason=signed_out/);

  // Another browser replays the copied cookie: pages send it to sign in, routes answer 401.
  const replay = await browser.newContext();
  await replay.addCookies(copied);
  const replayPage = await replay.newPage();
  await replayPage.goto("/context");
  await expect(replayPage).toHaveURL(/\/sign-in\?reason=session_revoked&next=%2Fcontext/);
  for (const path of ["/api/session", "/api/sessions", "/api/v1/context", "/api/activity"]) {
    const response = await replay.request.get(path);
    expect(response.status(), path).toBe(401);
    expect((await response.json()).code, path).toBe("session_revoked");
  }
  await replay.close();
});

test("the Sign-ins page lists every device signed in with the key and signs out another one", async ({ browser }) => {
  const first = await signedInBrowser(browser, FIREFOX);
  const second = await signedInBrowser(browser, SAFARI_IOS);

  await first.page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "More" }).click();
  await first.page.getByRole("link", { name: "Sign-ins" }).click();
  await expect(first.page.getByRole("heading", { level: 1, name: "Sign-ins" })).toBeVisible();
  await expect(first.page).toHaveURL(/\/sign-ins$/);
  const current = first.page.getByRole("listitem").filter({ hasText: "This device" });
  await expect(current).toContainText("Firefox on Linux");
  const other = first.page.getByRole("listitem").filter({ hasText: "Safari on iOS" });
  await expect(other).toBeVisible();
  await expect(other).toContainText(/Signed in .* last active/);

  await other.getByRole("button", { name: "Sign out Safari on iOS" }).click();
  await expect(other).toHaveCount(0);

  // The other browser's next page load finds its session ended.
  await second.page.goto("/context");
  await expect(second.page).toHaveURL(/\/sign-in\?reason=session_revoked/);
  // This one still works.
  await first.page.goto("/context");
  await expect(first.page).toHaveURL(/\/context$/);
  await first.context.close();
  await second.context.close();
});

test("Sign out all other devices keeps only this one", async ({ browser }) => {
  const first = await signedInBrowser(browser, FIREFOX);
  const others = [await signedInBrowser(browser, SAFARI_IOS), await signedInBrowser(browser, SAFARI_IOS)];
  await first.page.goto("/sign-ins");
  await expect(first.page.getByRole("listitem").filter({ hasText: "Safari on iOS" })).toHaveCount(2);
  await first.page.getByRole("button", { name: "Sign out all other devices" }).click();
  // Every other session of the key ends: these two, and any other tests left signed in.
  await expect(first.page.getByRole("status").filter({ hasText: /\d+ other devices signed out/ })).toBeVisible();
  await expect(first.page.getByRole("listitem")).toHaveCount(1);
  await expect(first.page.getByRole("listitem").filter({ hasText: "Safari on iOS" })).toHaveCount(0);
  for (const other of others) {
    expect((await other.context.request.get("/api/session")).status()).toBe(401);
    await other.context.close();
  }
  await first.context.close();
});
