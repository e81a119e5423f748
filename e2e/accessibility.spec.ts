import AxeBuilder from "@axe-core/playwright";
import { US_STORE } from "./support/demo";
import { expect, test } from "./support/fixtures";

/** Every page, checked by axe in light and dark mode: no serious or critical violation. */
const pages = [
  { path: "/context", ready: US_STORE },
  { path: `/stores/${US_STORE}`, ready: "google_merchant_center" },
  {
    path: `/stores/${US_STORE}/products?range=custom&from=2026-01-01&to=2026-01-31&compare=previous&source=both`,
    ready: "Channels under each attribution",
  },
];

for (const colorScheme of ["light", "dark"] as const) {
  test(`pages have no serious accessibility violations (${colorScheme})`, async ({ signedInPage: page }) => {
    await page.emulateMedia({ colorScheme });
    const sign = await (async () => {
      await page.context().clearCookies();
      await page.goto("/sign-in");
      return new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
    })();
    const report = (results: typeof sign) =>
      results.violations
        .filter((v) => v.impact === "serious" || v.impact === "critical")
        .map(
          (v) =>
            `${v.id}: ${v.nodes
              .map((n) => n.target.join(" "))
              .slice(0, 3)
              .join(", ")}`,
        );
    expect(report(sign), "/sign-in").toEqual([]);

    await page.getByLabel("API key").fill("sk_demo_admin_nw_us_5d8e2f41c7a9");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page).toHaveURL(/\/context$/);
    for (const target of pages) {
      await page.goto(target.path);
      await expect(page.getByText(target.ready).first()).toBeVisible();
      const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
      expect(report(results), target.path).toEqual([]);
    }
  });
}
