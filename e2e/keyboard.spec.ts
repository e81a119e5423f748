import type { Locator, Page } from "@playwright/test";
import { demo, KEYS, US_STORE } from "./support/demo";
import { expect, test } from "./support/fixtures";

/** Presses Tab until the target has the focus, as a keyboard user would. */
async function tabTo(page: Page, target: Locator, limit = 200) {
  await expect(target).toBeVisible();
  for (let presses = 0; presses < limit; presses++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`${target} was not reached in ${limit} presses of Tab`);
}

async function signInByKeyboard(page: Page, next: string) {
  await page.goto(`/sign-in?next=${encodeURIComponent(next)}`);
  await tabTo(page, page.getByLabel("API key"));
  await page.keyboard.type(KEYS.admin);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(next.replace(/[?]/g, "\\?")));
}

// Neither test calls click(): every step is a key press.
test("the product-metrics journey works by keyboard alone", async ({ page }) => {
  test.setTimeout(90_000);
  await signInByKeyboard(page, `/stores/${US_STORE}/products?range=custom&from=2026-01-01&to=2026-01-31`);
  await expect(page.getByTestId("kpi-Revenue")).toBeVisible();

  await tabTo(page, page.getByLabel("Compare with"));
  await page.keyboard.press("ArrowDown");
  await expect(page).toHaveURL(/compare=year/);

  await tabTo(page, page.getByRole("button", { name: /^Device type/ }));
  await page.keyboard.press("Enter");
  await expect(page.getByLabel("Search device type")).toBeFocused();
  await page.keyboard.type("mobile");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("checkbox", { name: "mobile" })).toBeFocused();
  await page.keyboard.press("Space");
  await expect(page.getByRole("checkbox", { name: "mobile" })).toBeChecked();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("button", { name: "Device type: mobile", exact: true })).toBeFocused();
  await expect(page).toHaveURL(/device=mobile/);

  await tabTo(page, page.getByRole("radio", { name: "Credit to the conversion" }));
  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("radio", { name: "Credit to the first touch" })).toBeChecked();
  await expect(page).toHaveURL(/source=first_touch/);

  const riser = page.getByRole("list", { name: "Products that rose most" }).getByRole("button").first();
  await tabTo(page, riser);
  // The product the focused button names (the list may have been redrawn for first-touch credit while tabbing).
  const productId = await page.evaluate(() => document.activeElement?.getAttribute("data-key"));
  expect(productId).toBeTruthy();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`product=${productId}`));
  await expect(page.getByRole("group", { name: "Active filters" })).toContainText("Product:");

  await tabTo(page, page.getByTestId("product-row").first().getByRole("button"));
  await page.keyboard.press("Enter");
  await expect(page.getByRole("table", { name: "Breakdown of this product by channel and ad" })).toBeVisible();

  await tabTo(page, page.getByRole("button", { name: "Orders", exact: true }));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/sort=orders/);
});

test("a tracking connection is removed by keyboard alone", async ({ page }) => {
  const [target, ...rest] = (await demo.state()).pixels[US_STORE]!;
  await signInByKeyboard(page, `/stores/${US_STORE}/tracking`);
  await tabTo(page, page.getByRole("button", { name: `Remove ${target!.name}` }));
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Remove tracking connection" });
  await expect(dialog.getByLabel(/to confirm/)).toBeFocused();
  await page.keyboard.type(target!.name);
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: `Removed “${target!.name}”` })).toBeVisible();
  expect((await demo.state()).pixels[US_STORE]!.map((pixel) => pixel.id)).toEqual(rest.map((pixel) => pixel.id));
});
