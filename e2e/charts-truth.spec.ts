import type { Page } from "@playwright/test";
import { LINE_COLORS, otherColor } from "@/components/products/chart-colors";
import { violationsInBothSchemes } from "./support/axe";
import { US_STORE } from "./support/demo";
import { expect, test } from "./support/fixtures";
import { sidewaysOverflow } from "./support/pages";

/**
 * Issue 36, items 3, 4, 7 and 8: a target only where there is one, each channel's own colour, charts
 * that draw what happened, and numbers with their units.
 */
const PRODUCTS = `/stores/${US_STORE}/products`;
const ALERTS = `/stores/${US_STORE}/alerts`;

/** Each legend entry's label and its swatch's colour (fill for an area, stroke for a line). */
const legendColors = (page: Page) =>
  page
    .getByRole("list", { name: "Legend" })
    .getByRole("listitem")
    .evaluateAll((items) =>
      items.map((item) => {
        const swatch = item.querySelector("rect, line");
        return [item.textContent?.trim() ?? "", swatch?.getAttribute("fill") ?? swatch?.getAttribute("stroke") ?? ""] as const;
      }),
    );

async function openProducts(page: Page, query: string) {
  await page.goto(`${PRODUCTS}?${query}`);
  const chart = page.getByTestId("time-chart");
  await expect(chart.locator(".recharts-area-area").first()).toBeVisible();
  return chart;
}

async function setTarget(page: Page, month: string, amount: number) {
  const origin = new URL(page.url()).origin;
  const response = await page.request.put(`/api/stores/${US_STORE}/targets`, {
    headers: { origin, "content-type": "application/json" },
    data: { month, amount },
  });
  expect(response.status()).toBe(200);
}

for (const width of [1440, 390]) {
  for (const scheme of ["light", "dark"] as const) {
    test(`channels keep their colours on every range, lines not splines, the target only in its month (${width} px, ${scheme})`, async ({
      signedInPage: page,
    }) => {
      test.setTimeout(120_000);
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(PRODUCTS);
      const month = new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York" }).format(new Date()).slice(0, 7);
      await setTarget(page, month, 90_000);

      // 90 days by month: the target's month alone has a Target, drawn as one mark; September and October have none.
      const chart = await openProducts(page, "range=last90&granularity=month&compare=both");
      await expect(chart.getByTestId("target-alone")).toHaveCount(1);
      const year = new Map(await legendColors(page));
      expect(year.get("Target")).toBe(LINE_COLORS[scheme].target);
      expect(year.get("Previous period")).toBe(LINE_COLORS[scheme].previous);
      expect(new Set([year.get("Target"), year.get("Previous period"), [...year].find(([label]) => /year/i.test(label))?.[1]]).size).toBe(
        3,
      );
      // Straight segments: no curve commands in any series path.
      const paths = await chart
        .locator(".recharts-area-area, .recharts-line-curve")
        .evaluateAll((nodes) => nodes.map((node) => node.getAttribute("d") ?? ""));
      expect(paths.length).toBeGreaterThan(3);
      for (const d of paths) expect(d).not.toMatch(/[CcSsQq]/);
      // Every axis label whole inside the chart.
      const svg = (await chart.locator("svg.recharts-surface").boundingBox())!;
      for (const tick of await chart.locator(".recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value").all()) {
        const box = (await tick.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(svg.x - 0.5);
        expect(box.x + box.width).toBeLessThanOrEqual(svg.x + svg.width + 0.5);
      }
      await page.screenshot({ path: `test-results/charts-months-${width}-${scheme}.png`, fullPage: true });
      await chart.locator("..").screenshot({ path: `test-results/chart-card-${width}-${scheme}.png` });
      await violationsInBothSchemes(page, `products, 90 days by month, ${width} px`);
      await page.emulateMedia({ colorScheme: scheme });

      // A week: each channel keeps the colour it had on the 90 days; only Other is grey.
      await openProducts(page, "range=last7&granularity=day&compare=off");
      const week = await legendColors(page);
      for (const [label, color] of week) {
        if (year.has(label) && label !== "Target") expect(color, label).toBe(year.get(label));
        if (label !== "Other") expect(color, label).not.toBe(otherColor(scheme));
      }
      // The share list: each channel in its own colour, none in Other's grey, no two alike.
      const dots = await page
        .getByRole("list", { name: "Channel share of revenue" })
        .locator("span[aria-hidden=true]")
        .evaluateAll((nodes) => nodes.map((node) => getComputedStyle(node).backgroundColor));
      expect(dots.length).toBeGreaterThan(5);
      expect(new Set(dots).size).toBe(dots.length);
      expect(await sidewaysOverflow(page)).toBe(0);
    });
  }
}

test("weeks cut by the range are marked partial on the chart, not drawn as a fall", async ({ signedInPage: page }) => {
  const chart = await openProducts(page, "range=custom&from=2026-01-07&to=2026-02-10&granularity=week");
  await expect(chart.getByText("partial", { exact: true })).toHaveCount(2);
});

for (const width of [1440, 390]) {
  test(`a revenue threshold is set, listed and backtested in the store's currency; Usual is the usual value (${width} px)`, async ({
    signedInPage: page,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: 900 });
    await page.goto(ALERTS);
    await page.getByRole("button", { name: "New rule" }).click();
    const form = page.getByRole("form", { name: "Alert rule" });
    await form.getByLabel("Name").fill(`Revenue under 18000 ${width}`);
    await form.getByLabel("Metric").selectOption("revenue");
    await expect(form.getByLabel("Minimum volume (in USD)")).toBeVisible();
    await form.getByLabel("Condition").selectOption("threshold");
    await form.getByLabel("Fires when the value is").selectOption("below");
    await form.getByLabel("Threshold (in USD)").fill("18000");
    await form.getByRole("button", { name: "Run the backtest" }).click();
    await expect(form.getByText(/Over the last 90 periods this rule would/)).toBeVisible({ timeout: 30_000 });
    const tickValues = form.getByTestId("backtest-chart").locator(".recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value");
    await expect(tickValues.first()).toBeVisible();
    const ticks = await tickValues.allTextContents();
    expect(ticks.length).toBeGreaterThan(1);
    for (const tick of ticks) expect(tick).toMatch(/^\$/);
    const usual = await form.locator("table tbody tr td:nth-child(3)").allTextContents();
    expect(usual.length).toBeGreaterThan(0);
    expect(usual.filter((cell) => cell === "$18,000.00")).toEqual([]);
    // A period's date on one line.
    for (const cell of await form.locator("table tbody tr td:first-child").all())
      expect((await cell.boundingBox())!.height).toBeLessThan(30);
    await page.screenshot({ path: `test-results/backtest-${width}-light.png`, fullPage: true });
    await violationsInBothSchemes(page, `alert rule backtest, ${width} px`);
    await form.getByRole("button", { name: "Save the rule" }).click();
    await expect(page.getByText(/below \$18,000\.00/).first()).toBeVisible();
  });
}
