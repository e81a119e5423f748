import { MAX_CHANNEL_SERIES, otherColor, seriesColors } from "@/components/products/chart-colors";
import { US_STORE } from "./support/demo";
import { expect, test } from "./support/fixtures";
import { sidewaysOverflow } from "./support/pages";

const PRODUCTS = `/stores/${US_STORE}/products`;
const JANUARY = `${PRODUCTS}?range=custom&from=2026-01-01&to=2026-01-31`;

for (const width of [390, 1440] as const) {
  for (const scheme of ["light", "dark"] as const) {
    test(`year-long presets, a comparison by default and a colour-safe chart with Other (${width} px, ${scheme})`, async ({
      signedInPage: page,
    }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width, height: 900 });
      await page.goto(JANUARY);
      await expect(page.getByTestId("kpi-Revenue")).toBeVisible();

      // The presets include a year three ways.
      const presets = page.getByLabel("Date range");
      for (const label of ["Last 365 days", "Last 12 months", "Year to date"])
        await expect(presets.locator("option", { hasText: label })).toHaveCount(1);

      // The tiles compare with the previous period without being asked.
      await expect(page.getByLabel("Compare with")).toHaveValue("previous");
      await expect(page.getByTestId("kpi-change-Revenue")).toContainText(/^([↑↓][\d.]+%|0\.0%|new)/);

      // The demo store has eight channels: five drawn each in its own colour, the three smallest as Other.
      const chart = page.getByTestId("time-chart");
      await expect(chart.locator(".recharts-area-area").first()).toBeVisible();
      const fills = await chart.locator(".recharts-area-area").evaluateAll((areas) => areas.map((area) => area.getAttribute("fill")));
      // Each channel in a colour of its own (the palette's, by channel), Other last in grey.
      expect(fills).toHaveLength(MAX_CHANNEL_SERIES);
      expect(new Set(fills).size).toBe(MAX_CHANNEL_SERIES);
      expect(fills.at(-1)).toBe(otherColor(scheme));
      for (const fill of fills.slice(0, -1)) expect(seriesColors[scheme]).toContain(fill);
      const legend = page.getByRole("list", { name: "Legend" });
      await expect(legend.getByRole("listitem")).toHaveCount(MAX_CHANNEL_SERIES + 1);
      await expect(legend.getByText("Other", { exact: true })).toBeVisible();
      await expect(legend.getByText("Previous period", { exact: true })).toBeVisible();
      // Every legend entry on one line, inside the card.
      for (const item of await legend.getByRole("listitem").all()) {
        const box = (await item.boundingBox())!;
        expect(box.height).toBeLessThan(24);
        expect(box.x + box.width).toBeLessThanOrEqual(width);
      }
      expect(await sidewaysOverflow(page)).toBe(0);

      // "No comparison" is a choice the URL remembers.
      await page.getByLabel("Compare with").selectOption("off");
      await expect(page).toHaveURL(/compare=off/);
      await page.reload();
      await expect(page.getByLabel("Compare with")).toHaveValue("off");
      await expect(page.getByTestId("kpi-Revenue")).toBeVisible();
      await expect(page.getByTestId("kpi-change-Revenue")).toHaveText("");
      await expect(legend.getByText("Previous period", { exact: true })).toHaveCount(0);
    });
  }
}

test("a year to date opens on a year-long view, and weeks cut by the range are labelled partial", async ({ signedInPage: page }) => {
  await page.goto(JANUARY);
  await expect(page.getByTestId("kpi-Revenue")).toBeVisible();
  await page.getByLabel("Date range").selectOption({ label: "Year to date" });
  await expect(page).toHaveURL(/range=yearToDate/);
  await expect(page.getByTestId("kpi-Revenue")).toBeVisible();

  // Wednesday 7 January to Tuesday 10 February, by week: both ends are partial weeks.
  await page.goto(`${PRODUCTS}?range=custom&from=2026-01-07&to=2026-02-10&granularity=week`);
  const note = page.getByTestId("partial-periods");
  await expect(note).toContainText("Partial weeks");
  await expect(note).toContainText("Week of Jan 5, 2026 holds Jan 7, 2026 to Jan 11, 2026 only");
  await expect(note).toContainText("Week of Feb 9, 2026 holds Feb 9, 2026 to Feb 10, 2026 only");
  // Whole weeks say nothing.
  await page.goto(`${PRODUCTS}?range=custom&from=2026-01-05&to=2026-02-08&granularity=week`);
  await expect(page.getByTestId("kpi-Revenue")).toBeVisible();
  await expect(page.getByTestId("time-chart").locator(".recharts-area-area").first()).toBeVisible();
  await expect(page.getByTestId("partial-periods")).toHaveCount(0);
});
