import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { demo, KEYS, US_STORE } from "./support/demo";
import { expect, signInWithKey, test } from "./support/fixtures";
import { clippedFigures, splitWords } from "./support/measure";
import { openPage, PRODUCTS_PAGE, SIGNED_IN_PAGES, sidewaysOverflow } from "./support/pages";

// One of the longest files, of tests that need nothing from one another: they spread over the workers.
test.describe.configure({ mode: "parallel" });

/** Issue 16, findings 3 and 4: every figure whole and no word split, on phones and desktops, light and dark. */

const WIDTHS = [390, 1440] as const;
const SCHEMES = ["light", "dark"] as const;

/** One Activity entry (a removal made through the dashboard's API), so the Activity page has a row to lay out. */
async function recordOneAction(page: Page) {
  const [target] = (await demo.state()).pixels[US_STORE]!;
  const origin = new URL(page.url()).origin;
  const answer = await page.request.delete(`/api/v1/pixels/${US_STORE}/${target!.id}`, {
    headers: { origin, "idempotency-key": randomUUID() },
  });
  expect(answer.ok()).toBe(true);
}

test("the measures see what they look for: a word cut by overflow-wrap anywhere, a figure cut by its cell", async ({ page }) => {
  await page.setContent(`
    <p style="width: 60px; overflow-wrap: anywhere">northwindoutfitters</p>
    <table><tr><td data-testid="number-cell" style="max-width: 12px; overflow: hidden; white-space: nowrap">850</td></tr></table>`);
  expect(await splitWords(page)).toEqual(["northwindoutfitters"]);
  expect(await clippedFigures(page)).toEqual(["850"]);
});

for (const width of WIDTHS) {
  test(`every page at ${width} px, light and dark: no word split over two lines, no figure clipped`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: 900 });
    await signInWithKey(page, KEYS.admin);
    await expect(page).toHaveURL(/\/context$/);
    await recordOneAction(page);
    for (const target of SIGNED_IN_PAGES) {
      await openPage(page, target);
      // The schemes differ in style only: the same page, restyled, is measured in each.
      for (const scheme of SCHEMES) {
        await page.emulateMedia({ colorScheme: scheme });
        const where = `${target.name}, ${scheme}`;
        expect(await splitWords(page), `${where}: words split over two lines`).toEqual([]);
        expect(await clippedFigures(page), `${where}: clipped figures`).toEqual([]);
        expect(await sidewaysOverflow(page), where).toBe(0);
      }
      await page.emulateMedia({ colorScheme: "light" });
    }
  });
}

test("at 390 px the product table keeps each product's name in view while its figures scroll, and every figure whole", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInWithKey(page, KEYS.admin, PRODUCTS_PAGE);
  const row = page.getByTestId("product-row").first();
  await expect(row).toBeVisible();
  const box = page.locator("div.overflow-x-auto", { has: page.getByTestId("product-row") });
  await row.scrollIntoViewIfNeeded();
  await box.evaluate((element) => (element.scrollLeft = element.scrollWidth));
  expect(await box.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
  const [nameCell, frame] = await Promise.all([row.locator("td").first().boundingBox(), box.boundingBox()]);
  expect(nameCell!.x).toBeGreaterThanOrEqual(frame!.x - 1);
  expect(nameCell!.x + nameCell!.width).toBeLessThanOrEqual(frame!.x + frame!.width + 1);
  // What is drawn at the name's place is the name, not a figure scrolled beneath it.
  const onTop = await page.evaluate(
    ([x, y]) => document.elementFromPoint(x!, y!)?.closest("td")?.cellIndex,
    [nameCell!.x + 10, nameCell!.y + nameCell!.height / 2],
  );
  expect(onTop).toBe(0);
  // The orders column reads whole: every cell's text fits its cell.
  expect(await clippedFigures(page)).toEqual([]);
  const orders = await row
    .getByTestId("number-cell")
    .first()
    .evaluate((cell) => [cell.scrollWidth, cell.clientWidth]);
  expect(orders[0]).toBeLessThanOrEqual(orders[1]! + 1);
});

test("at 390 px Activity and the store list read as cards, each row's label above its values", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInWithKey(page, KEYS.admin);
  await expect(page).toHaveURL(/\/context$/);
  const storeRow = page.locator("table.cards-on-phone tbody tr").first();
  await expect(storeRow).toBeVisible();
  expect(await storeRow.evaluate((row) => getComputedStyle(row).display)).toBe("block");
  await expect(storeRow.getByRole("link", { name: US_STORE })).toBeVisible();

  await recordOneAction(page);
  await page.goto("/activity");
  const entry = page
    .getByRole("region", { name: /^Activity entries/ })
    .locator("tbody tr")
    .first();
  await expect(entry).toBeVisible();
  expect(await entry.evaluate((row) => getComputedStyle(row).display)).toBe("block");
  const height = (await entry.boundingBox())!.height;
  const width = (await entry.boundingBox())!.width;
  expect(width).toBeLessThanOrEqual(390);
  // The outcome reads whole ("Succeeded", never "Succee").
  await expect(entry.getByText("Succeeded", { exact: true })).toBeVisible();
  expect(await splitWords(page)).toEqual([]);
  expect(height).toBeGreaterThan(0);
});
