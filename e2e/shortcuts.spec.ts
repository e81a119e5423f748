import { US_STORE } from "./support/demo";
import { expect, test } from "./support/fixtures";

const PAGE = `/stores/${US_STORE}/products?range=custom&from=2026-01-01&to=2026-01-31`;

test("arrows step the period, x toggles the comparison, / searches, ? lists them; none fires while typing", async ({
  signedInPage: page,
}) => {
  await page.goto(PAGE);
  await expect(page.getByTestId("kpi-Revenue")).toBeVisible();
  await page.locator("body").click({ position: { x: 5, y: 5 } });

  await page.keyboard.press("ArrowLeft");
  await expect(page).toHaveURL(/from=2025-12-01&to=2025-12-31/);
  await page.keyboard.press("ArrowRight");
  await expect(page).toHaveURL(/from=2026-01-01&to=2026-01-31/);

  // The previous period is compared by default: x turns the comparison off (said in the URL) and on again.
  await expect(page.getByLabel("Compare with")).toHaveValue("previous");
  await page.keyboard.press("x");
  await expect(page).toHaveURL(/compare=off/);
  await expect(page.getByLabel("Compare with")).toHaveValue("off");
  await page.keyboard.press("x");
  await expect(page).not.toHaveURL(/compare=/);
  await expect(page.getByLabel("Compare with")).toHaveValue("previous");

  await page.keyboard.press("/");
  const search = page.getByLabel("Search products by name, SKU or ID");
  await expect(search).toBeFocused();
  // Typing in the field: the letters and arrows are the field's.
  await page.keyboard.type("x");
  await page.keyboard.press("ArrowLeft");
  await expect(search).toHaveValue("x");
  await expect(page).toHaveURL(/q=x/);
  await expect(page).not.toHaveURL(/compare=/);
  await expect(page).toHaveURL(/from=2026-01-01&to=2026-01-31/);

  await search.blur();
  await page.keyboard.press("?");
  const dialog = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("Comparison on or off");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
});
