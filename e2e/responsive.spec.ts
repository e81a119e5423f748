import { KEYS, US_STORE } from "./support/demo";
import { expect, signInWithKey, test } from "./support/fixtures";
import { openPage, PRODUCTS_PAGE, SIGNED_IN_PAGES, sidewaysOverflow } from "./support/pages";
import { E2E_DEMO_UPSTREAM_PORT } from "../playwright.config";

const PHONE = { width: 390, height: 844 };

// Every signed-in page is measured at 390 px in e2e/figures.spec.ts; here the pages and states it does not open.
test("neither the sign-in page nor the product page with its parts open scrolls sideways at 390 px", async ({ page }) => {
  await page.setViewportSize(PHONE);
  await page.goto("/sign-in");
  await expect(page.getByLabel("API key")).toBeVisible();
  expect(await sidewaysOverflow(page), "/sign-in").toBe(0);
  await signInWithKey(page, KEYS.admin);
  await expect(page).toHaveURL(/\/context$/);
  // The open parts of the product page: a filter panel and a product's breakdown.
  await openPage(
    page,
    SIGNED_IN_PAGES.find((target) => target.name === "products")!,
  );
  await page.getByTestId("product-row").first().getByRole("button").click();
  await expect(page.getByRole("table", { name: "Breakdown of this product by channel and ad" })).toBeVisible();
  await page.getByRole("button", { name: /^Country/ }).click();
  await expect(page.getByRole("group", { name: "Country filter" })).toBeVisible();
  expect(await sidewaysOverflow(page), "products with a panel and a breakdown open").toBe(0);
});

interface Pixel {
  id: string;
  name: string;
  channel: string;
  pixel: string;
  settings: { baseDomain: string };
}

test("tracking connections are cards below 640 px, with every field and both actions", async ({ page }) => {
  const response = await fetch(`http://127.0.0.1:${E2E_DEMO_UPSTREAM_PORT}/v1/pixels/${US_STORE}`, {
    headers: { "x-api-key": KEYS.admin },
  });
  const { pixels } = (await response.json()) as { pixels: Pixel[] };
  expect(pixels.length).toBeGreaterThan(1);

  await page.setViewportSize(PHONE);
  await signInWithKey(page, KEYS.admin, `/stores/${US_STORE}/tracking`);
  const cards = page.getByTestId("connection-card");
  await expect(cards).toHaveCount(pixels.length);
  await expect(page.getByRole("table")).toBeHidden();
  for (const [index, pixel] of pixels.entries()) {
    const card = cards.nth(index);
    await expect(card.getByRole("heading", { name: pixel.name, exact: true })).toBeVisible();
    for (const label of ["Channel", "Pixel ID", "Enabled", "Published", "Unpublished changes", "Base domain", "Created", "Updated"])
      await expect(card.locator("dt", { hasText: new RegExp(`^${label}$`) })).toBeVisible();
    await expect(card).toContainText(pixel.pixel);
    await expect(card).toContainText(pixel.channel);
    await expect(card).toContainText(pixel.settings.baseDomain);
    await expect(card.getByRole("button", { name: `Details of ${pixel.name}` })).toBeVisible();
    await expect(card.getByRole("button", { name: `Remove ${pixel.name}` })).toBeVisible();
  }
  expect(await sidewaysOverflow(page)).toBe(0);
  await cards
    .first()
    .getByRole("button", { name: `Remove ${pixels[0]!.name}` })
    .click();
  await expect(page.getByRole("dialog", { name: "Remove tracking connection" })).toBeVisible();
  expect(await sidewaysOverflow(page)).toBe(0);

  // From 640 px the table returns, scrolling inside its own box: its hidden header must not widen the page.
  await page.keyboard.press("Escape");
  await page.setViewportSize({ width: 700, height: 900 });
  await expect(page.getByRole("table")).toBeVisible();
  await expect(cards.first()).toBeHidden();
  expect(await sidewaysOverflow(page)).toBe(0);
});

for (const width of [390, 1440]) {
  test(`the time chart's date labels do not overlap at ${width} px`, async ({ signedInPage: page }) => {
    await page.setViewportSize({ width, height: 900 });
    // 123 days: many more points than labels fit.
    await page.goto(PRODUCTS_PAGE.replace("from=2026-01-01", "from=2025-10-01"));
    const ticks = page.getByTestId("time-chart").locator(".recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value");
    await expect(ticks.first()).toBeVisible();
    const boxes = (await ticks.evaluateAll((nodes) => nodes.map((node) => node.getBoundingClientRect().toJSON()))) as DOMRect[];
    expect(boxes.length).toBeGreaterThanOrEqual(2);
    boxes.sort((a, b) => a.x - b.x);
    for (let index = 1; index < boxes.length; index++) expect(boxes[index]!.x, `label ${index}`).toBeGreaterThan(boxes[index - 1]!.right);
  });
}
