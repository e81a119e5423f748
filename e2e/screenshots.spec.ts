import { KEYS, US_STORE } from "./support/demo";
import { expect, signInWithKey, test } from "./support/fixtures";

// Pictures of each page for people to look at: `SCREENSHOTS=1 npx playwright test screenshots`.
test.skip(!process.env.SCREENSHOTS, "set SCREENSHOTS=1 to take the screenshots");

const pages = [
  { name: "sign-in", path: "/sign-in", ready: "Sign in with your API key", signedIn: false },
  { name: "context", path: "/context", ready: US_STORE, signedIn: true },
  { name: "store", path: `/stores/${US_STORE}`, ready: "google_merchant_center", signedIn: true },
  { name: "products", path: `/stores/${US_STORE}/products?compare=previous`, ready: "Top products by revenue", signedIn: true },
  { name: "tracking", path: `/stores/${US_STORE}/tracking`, ready: "Base domain", signedIn: true },
  { name: "clone", path: `/stores/${US_STORE}/campaigns/clone`, ready: "Ad account", signedIn: true },
  { name: "activity", path: "/activity", ready: "Activity", signedIn: true },
];

for (const colorScheme of ["light", "dark"] as const) {
  for (const viewport of [
    { label: "narrow", width: 390, height: 844 },
    { label: "wide", width: 1440, height: 900 },
  ]) {
    test(`screenshots ${colorScheme} ${viewport.label}`, async ({ page }) => {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize(viewport);
      for (const shot of pages) {
        if (shot.signedIn && !(await page.context().cookies()).some((cookie) => cookie.name === "session")) {
          await signInWithKey(page, KEYS.admin);
          await expect(page).toHaveURL(/\/context$/);
        }
        await page.goto(shot.path);
        await expect(page.getByText(shot.ready).locator("visible=true").first()).toBeVisible();
        // Narrow pages are long: the first screens are what a phone shows.
        const clip = viewport.label === "narrow" ? { x: 0, y: 0, width: viewport.width, height: 2200 } : undefined;
        await page.screenshot({ path: `screenshots/${shot.name}-${colorScheme}-${viewport.label}.png`, fullPage: true, clip });
      }
    });
  }
}
