import { demo, US_STORE } from "./support/demo";
import { expect, test } from "./support/fixtures";

const PAGE = `/stores/${US_STORE}/products?range=custom&from=2026-01-01&to=2026-01-31`;

test("a filter ticked is in the URL at once, so a reload right after keeps it", async ({ signedInPage: page }) => {
  await page.goto(PAGE);
  await expect(page.getByTestId("kpi-Revenue")).toBeVisible();
  // A slow upstream: the URL must not wait for the figures.
  await demo.setFaults([{ route: "products", latencyMs: 4000 }]);
  await page.getByRole("button", { name: /^Device type/ }).click();
  await page.getByRole("group", { name: "Device type filter" }).getByLabel("mobile").click();
  await expect(page).toHaveURL(/device=mobile/, { timeout: 500 });
  await page.reload();
  await expect(
    page.getByRole("group", { name: "Active filters" }).getByRole("button", { name: "Remove filter Device type: mobile" }),
  ).toBeVisible();

  await page.getByLabel("Compare with").selectOption("year");
  await expect(page).toHaveURL(/compare=year/, { timeout: 500 });
  await page.getByLabel("Channel", { exact: true }).selectOption("google");
  await expect(page).toHaveURL(/channel=google/, { timeout: 500 });
  await page.reload();
  await expect(page.getByLabel("Channel", { exact: true })).toHaveValue("google");
  await expect(page.getByLabel("Compare with")).toHaveValue("year");

  // Back steps through what was on screen, without waiting for an answer either.
  await page.goBack();
  await expect(page).not.toHaveURL(/channel=google/);
  await expect(page.getByLabel("Channel", { exact: true })).not.toHaveValue("google");
});
