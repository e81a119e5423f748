import type { Page } from "@playwright/test";
import { E2E_DEMO_UPSTREAM_PORT } from "../playwright.config";
import { KEYS, US_STORE } from "./support/demo";
import { expect, test } from "./support/fixtures";
import { expectedRevenueChange } from "./support/expected";
import { sidewaysOverflow } from "./support/pages";

const PAGE = `/stores/${US_STORE}/products?range=custom&from=2026-01-01&to=2026-01-31`;

/** Revenue in cents from the raw rows of a range, summed here. */
async function revenueCents(startDate: string, endDate: string) {
  const url = `http://127.0.0.1:${E2E_DEMO_UPSTREAM_PORT}/v1/ad-metrics/${US_STORE}/products?startDate=${startDate}&endDate=${endDate}`;
  const rows = (await (await fetch(url, { headers: { "x-api-key": KEYS.admin } })).json()) as { revenue: number }[];
  return rows.reduce((total, row) => total + Math.round(row.revenue * 100), 0);
}

const percentText = (now: number, before: number) => expectedRevenueChange(now, before, "the period before").text;

const chart = (page: Page) => page.getByTestId("time-chart");

test("two comparisons at once: the previous period and the same weekdays a year earlier, each with its change and dashed line", async ({
  signedInPage: page,
}) => {
  await page.goto(`${PAGE}&compare=both`);
  const now = await revenueCents("2026-01-01", "2026-01-31");
  const previous = await revenueCents("2025-12-01", "2025-12-31");
  // 52 weeks earlier: Thursday 1 January 2026 is compared with Thursday 2 January 2025.
  const yearEarlier = await revenueCents("2025-01-02", "2025-02-01");
  const change = page.getByTestId("kpi-change-Revenue");
  await expect(change).toContainText(`vs previous ${percentText(now, previous)}`);
  await expect(change).toContainText(`vs last year ${percentText(now, yearEarlier)}`);
  await expect(chart(page).locator(".recharts-line")).toHaveCount(2);
  await expect(chart(page).locator(".recharts-line-curve").first()).toHaveAttribute("stroke-dasharray", "6 4");
  await expect(chart(page).locator("figcaption")).toContainText("dashed: Previous period; dashed: A year earlier (same weekdays)");
  // The legend names both dashed lines, and the tooltip lists the comparisons beside the channels.
  const legend = page.getByRole("list", { name: "Legend" });
  await expect(legend.getByText("Previous period", { exact: true })).toBeVisible();
  await expect(legend.getByText("A year earlier (same weekdays)", { exact: true })).toBeVisible();
  const plot = chart(page).locator(".recharts-wrapper").first();
  const box = (await plot.boundingBox())!;
  await plot.hover({ position: { x: box.width / 2, y: box.height / 2 } });
  await plot.hover({ position: { x: box.width / 2 + 6, y: box.height / 2 } });
  await expect(chart(page).locator(".recharts-tooltip-wrapper")).toContainText("Previous period");
});

test("granularity follows the range and stays switchable; the axis carries the currency", async ({ signedInPage: page }) => {
  await page.goto(PAGE);
  const granularity = page.getByRole("radiogroup", { name: "Granularity" });
  await expect(granularity.getByRole("radio", { name: "Day" })).toHaveAttribute("aria-checked", "true");
  await expect(chart(page).locator(".recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value").last()).toHaveText(/^\$[\d.]+K?$/);

  await page.goto(`/stores/${US_STORE}/products?range=custom&from=2025-02-01&to=2026-01-31`);
  // A year of rows is read before the chart shows: the slowest read of the journey.
  await expect(granularity.getByRole("radio", { name: "Week" })).toHaveAttribute("aria-checked", "true", { timeout: 20_000 });
  await expect(page).not.toHaveURL(/granularity=/);
  await granularity.getByRole("radio", { name: "Month" }).click();
  await expect(page).toHaveURL(/granularity=month/);
  // Months start on the first: the first bucket of the range is 1 February.
  await expect(chart(page).locator(".recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value").first()).toHaveText("Feb 1, 2025");
});

test("the day still going is marked as so far, not read as a drop", async ({ signedInPage: page }) => {
  await page.goto(`/stores/${US_STORE}/products?range=last7`);
  await expect(chart(page).getByText("today so far")).toBeVisible();
  await page.goto(PAGE);
  await expect(chart(page).locator(".recharts-area-area").first()).toBeVisible();
  await expect(chart(page).getByText("so far")).toHaveCount(0);
});

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`top product labels wrap between words, never cut, at ${viewport.width} px`, async ({ signedInPage: page }) => {
    await page.setViewportSize(viewport);
    await page.goto(PAGE);
    const labels = page.locator('[data-testid="bar-label"]');
    await expect(labels.first()).toBeVisible();
    const count = await labels.count();
    expect(count).toBeGreaterThan(1);
    for (let index = 0; index < count; index++) {
      const label = labels.nth(index);
      const full = (await label.locator("title").textContent())!;
      const shown = (await label.locator("tspan").allTextContents()).join(" ");
      expect(shown, full).toBe(full);
    }
    expect(await sidewaysOverflow(page)).toBe(0);
  });
}
