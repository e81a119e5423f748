import type { Page } from "@playwright/test";
import { STORES } from "@/demo-upstream/fixtures";
import { KEYS, US_STORE } from "./support/demo";
import { expect, signInWithKey, test } from "./support/fixtures";
import { splitWords } from "./support/measure";
import { sidewaysOverflow } from "./support/pages";

const WIDTHS = [390, 1440] as const;
const SCHEMES = ["light", "dark"] as const;
const US_NAME = STORES.find((store) => store.url === US_STORE)!.name;

/** Break opportunities (`<wbr>`) that do not follow a separator: a place where a word could be cut. */
const breaksInsideWords = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll("wbr")]
      .filter((element) => element.checkVisibility?.() !== false)
      .map((element) => element.previousSibling?.textContent ?? "")
      .filter((before) => !/[./@_\-:?&=#+]$/.test(before)),
  );

for (const width of WIDTHS) {
  for (const scheme of SCHEMES) {
    test(`the header leads with the store's pages and the inbox, operator pages under More (${width} px, ${scheme})`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width, height: 900 });
      await signInWithKey(page, KEYS.admin);
      await expect(page).toHaveURL(/\/context$/);
      const main = page.getByRole("navigation", { name: "Main" });
      // Names without the unread count an earlier journey's alert may have left on Inbox.
      const names = await main
        .locator("a:visible, button:visible")
        .evaluateAll((elements) => elements.map((element) => element.textContent?.trim().replace(/\d+$/, "")));
      expect(names).toEqual(["Overview", "Product metrics", "Inbox", "More▾"]);
      await expect(main.getByRole("link", { name: "Overview" })).toHaveAttribute("href", `/stores/${US_STORE}`);
      await expect(main.getByRole("link", { name: "Product metrics" })).toHaveAttribute("href", `/stores/${US_STORE}/products`);

      // The menu, by keyboard: Enter opens it, its links follow the button in the tab order, Escape closes it.
      const more = main.getByRole("button", { name: "More" });
      await expect(more).toHaveAttribute("aria-expanded", "false");
      await expect(main.getByRole("link", { name: "Activity" })).toBeHidden();
      await more.focus();
      await page.keyboard.press("Enter");
      await expect(more).toHaveAttribute("aria-expanded", "true");
      for (const name of ["Activity", "Runs", "Outbox", "Sign-ins"])
        await expect(main.getByRole("link", { name, exact: true })).toBeVisible();
      await expect(main.getByText("Deliveries")).toBeVisible();
      expect(await sidewaysOverflow(page)).toBe(0);
      await page.keyboard.press("Tab");
      await expect(main.getByRole("link", { name: "Activity" })).toBeFocused();
      await page.keyboard.press("Escape");
      await expect(more).toHaveAttribute("aria-expanded", "false");
      await expect(more).toBeFocused();
      await expect(main.getByRole("link", { name: "Activity" })).toBeHidden();

      // Each page of the menu opens from it, and the button shows where one is.
      await more.click();
      await main.getByRole("link", { name: "Outbox" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Outbox" })).toBeVisible();
      await expect(more).toHaveAttribute("aria-expanded", "false");
      await more.click();
      await expect(main.getByRole("link", { name: "Outbox" })).toHaveAttribute("aria-current", "page");
      await main.getByRole("link", { name: "Sign-ins" }).click();
      await expect(page).toHaveURL(/\/sign-ins$/);
      await expect(page).toHaveTitle(/Sign-ins/);
      await expect(page.getByRole("heading", { level: 1, name: "Sign-ins" })).toBeVisible();
      await expect(page.getByText("This device")).toBeVisible();
    });
  }
}

test("the old Sessions address leads to Sign-ins", async ({ page }) => {
  await signInWithKey(page, KEYS.admin);
  await expect(page).toHaveURL(/\/context$/);
  await page.goto("/sessions");
  await expect(page).toHaveURL(/\/sign-ins$/);
  await expect(page.getByRole("heading", { level: 1, name: "Sign-ins" })).toBeVisible();
});

test("a click outside the menu closes it", async ({ page }) => {
  await signInWithKey(page, KEYS.admin);
  await expect(page).toHaveURL(/\/context$/);
  const more = page.getByRole("button", { name: "More" });
  await more.click();
  await expect(page.getByRole("link", { name: "Activity" })).toBeVisible();
  await page.getByRole("heading", { level: 1 }).first().click();
  await expect(more).toHaveAttribute("aria-expanded", "false");
});

test("at 390 px every store tab is on screen, none hidden past the edge", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInWithKey(page, KEYS.admin, `/stores/${US_STORE}`);
  const tabs = page.getByRole("navigation", { name: "Store sections" }).getByRole("link");
  await expect(tabs).toHaveCount(7);
  for (const tab of await tabs.all()) {
    await expect(tab).toBeInViewport({ ratio: 1 });
    const box = (await tab.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  }
  expect(await sidewaysOverflow(page)).toBe(0);
});

for (const width of WIDTHS) {
  test(`stores are named by their name with the address beside it, never cut inside a word (${width} px)`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await signInWithKey(page, KEYS.admin);
    await expect(page).toHaveURL(/\/context$/);
    const link = page.getByRole("link", { name: new RegExp(`^${US_NAME.replace(/[()]/g, "\\$&")}`) });
    await expect(link).toBeVisible();
    await expect(link).toContainText(US_STORE);
    // The name comes first.
    expect((await link.textContent())!.indexOf(US_NAME)).toBe(0);
    expect(await breaksInsideWords(page)).toEqual([]);
    expect(await splitWords(page)).toEqual([]);

    await link.click();
    await expect(page.getByRole("heading", { level: 1, name: US_NAME })).toBeVisible();
    await expect(page.getByTestId("store-url")).toHaveText(US_STORE);
    await expect(page.getByRole("heading", { name: "Google Merchant Center" }).first()).toBeVisible();
    expect(await breaksInsideWords(page)).toEqual([]);
    expect(await splitWords(page)).toEqual([]);
  });
}
