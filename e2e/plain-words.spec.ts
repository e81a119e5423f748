import { US_STORE } from "./support/demo";
import { expect, test } from "./support/fixtures";

for (const width of [1440, 390] as const) {
  test(`the health card agrees with each catalog card, and Last synced gives its date and zone (${width} px)`, async ({
    signedInPage: page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/stores/${US_STORE}`);
    const health = page.getByTestId("store-health");
    await expect(page.getByRole("heading", { name: "Google Merchant Center" }).first()).toBeVisible();
    const cards = page.getByTestId("catalog-card");
    for (const name of ["Google Merchant Center", "Meta catalog", "TikTok catalog"]) {
      const cardOf = cards.filter({ has: page.getByRole("heading", { name, exact: true }) });
      if ((await cardOf.count()) === 0) continue;
      const badge = (await cardOf
        .getByText(/^(Active|Paused|Error|Failed)$/)
        .first()
        .textContent())!;
      const line = health.locator("div.flex", { hasText: `${name}:` });
      await expect(line).toContainText(`${name}: ${badge}`);
      // The marker's words match the badge: an Active catalog is never read as failing.
      const marker = (await line.locator(".sr-only").textContent())!;
      // An active catalog not synchronized for over a week (the demo's are a year old) needs a look, never "Fine".
      const stale = ((await line.textContent()) ?? "").includes("not synchronized for over a week");
      expect(marker).toBe(badge === "Active" ? (stale ? "Needs a look: " : "Fine: ") : badge === "Paused" ? "Needs a look: " : "Failing: ");
    }
    const synced = page.getByRole("term").filter({ hasText: "Last synced" }).first().locator("xpath=following-sibling::dd[1]");
    await expect(synced).toHaveText(/\d{4}, .*(EST|EDT|GMT[+-]\d+).*\(/);
  });
}
