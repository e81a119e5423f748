import type { Locator, Page } from "@playwright/test";
import { formatCurrency } from "@/shared/format";
import { compactChange } from "@/shared/metrics/comparison";
import { parseCsv } from "@/shared/export-verify";
import { E2E_DEMO_UPSTREAM_PORT } from "../playwright.config";
import { violationsInBothSchemes } from "./support/axe";
import { demo, EU_STORE, KEYS, US_STORE } from "./support/demo";
import { exportWithManifest } from "./support/exports";
import { expect, signInWithKey, test } from "./support/fixtures";
import { sidewaysOverflow } from "./support/pages";

const shift = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const upstream = (path: string, apiKey: string) =>
  fetch(`http://127.0.0.1:${E2E_DEMO_UPSTREAM_PORT}/v1${path}`, { headers: { "x-api-key": apiKey } }).then((r) => r.json());

/** A store's last 7 days in its own zone and the 7 before, summed here from the raw rows, to the cent. */
async function ownWeek(store: string, apiKey: string) {
  const profile = (await upstream(`/store-data/${store}`, apiKey)) as { timezone: string; currency: string };
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: profile.timezone }).format(new Date());
  const cents = async (from: string, to: string) =>
    ((await upstream(`/ad-metrics/${store}/products?startDate=${from}&endDate=${to}`, apiKey)) as { revenue: number }[]).reduce(
      (total, row) => total + Math.round(row.revenue * 100),
      0,
    );
  const [now, before] = await Promise.all([cents(shift(today, -6), today), cents(shift(today, -13), shift(today, -7))]);
  return { currency: profile.currency, revenue: now / 100, previous: before / 100 };
}

/** Signs in with the US key and adds the EU key through the store list's form. */
async function ringOfBoth(page: Page) {
  await signInWithKey(page, KEYS.admin);
  await expect(page).toHaveURL(/\/context$/);
  await page.getByLabel("Add a store: its API key").fill(KEYS.euAdmin);
  await page.getByRole("button", { name: "Add a store", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: `Added ${EU_STORE} to your key ring.` })).toBeVisible();
}

const rows = (page: Page) => page.locator("table tbody tr");
const rowOf = (page: Page, store: string): Locator => rows(page).filter({ hasText: store });
const storeOrder = async (page: Page) =>
  (await rows(page).locator("th").allTextContents()).map((text) => (text.includes(US_STORE) ? US_STORE : EU_STORE));

for (const width of [1440, 390]) {
  test(`All stores (${width} px): each store's own week to the cent in its own currency, its change, the totals per currency, sorting, axe light and dark`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: 900 });
    await ringOfBoth(page);
    // The header's first item once the ring holds two stores.
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link").first()).toHaveText("All stores");
    await page
      .getByRole("link", { name: /^All stores/ })
      .first()
      .click();
    await expect(page).toHaveURL(/\/stores$/);
    await expect(page.getByRole("heading", { name: "All stores", level: 1 })).toBeVisible();

    const weeks = { [US_STORE]: await ownWeek(US_STORE, KEYS.admin), [EU_STORE]: await ownWeek(EU_STORE, KEYS.euAdmin) };
    for (const [store, week] of Object.entries(weeks)) {
      const row = rowOf(page, store);
      await expect(row).toContainText(formatCurrency(week.revenue, week.currency));
      await expect(row).toContainText(compactChange(week.revenue, week.previous, "").text);
      await expect(row).toContainText(week.currency);
    }
    await expect(page.getByTestId("portfolio-totals")).toHaveText(
      ["EUR", "USD"]
        .map((code) => {
          const week = Object.values(weeks).find((candidate) => candidate.currency === code)!;
          return `${code} ${formatCurrency(week.revenue, code)} (1 store)`;
        })
        .join(" · "),
    );
    await violationsInBothSchemes(page, `all stores, ${width} px`);
    expect(await sidewaysOverflow(page)).toBe(0);

    // It opens on what needs attention: the largest fall in revenue first. Sorting by revenue reorders
    // the rows, largest first, then smallest first; the URL keeps the sort.
    const change = (week: { revenue: number; previous: number }) => (week.revenue - week.previous) / week.previous;
    const ranked = (by: (week: Awaited<ReturnType<typeof ownWeek>>) => number) =>
      Object.entries(weeks)
        .sort(([, a], [, b]) => by(a) - by(b))
        .map(([store]) => store);
    await expect.poll(() => storeOrder(page)).toEqual(ranked(change));
    const sortByRevenue = () =>
      width === 1440
        ? page.getByRole("button", { name: "Revenue", exact: true }).click()
        : page.getByLabel("Sort by").selectOption("revenue");
    await sortByRevenue();
    await expect(page).toHaveURL(/sort=revenue/);
    await expect.poll(() => storeOrder(page)).toEqual(ranked((week) => -week.revenue));
    if (width === 1440) await sortByRevenue();
    else await page.goto("/stores?sort=revenue&direction=asc");
    await expect.poll(() => storeOrder(page)).toEqual(ranked((week) => week.revenue));
    await page.reload();
    await expect.poll(() => storeOrder(page)).toEqual(ranked((week) => week.revenue));

    // A row opens its store's Product metrics with the same range.
    await page.getByLabel("Date range").selectOption("last30");
    await expect(page).toHaveURL(/range=last30/);
    await rowOf(page, EU_STORE)
      .getByRole("link", { name: /Northwind/ })
      .click();
    await expect(page).toHaveURL(new RegExp(`/stores/${EU_STORE}/products$`));
    await expect(page.getByLabel("Date range")).toHaveValue("last30");
  });
}

test("a revoked key's row says what to do while the other row stays", async ({ page }) => {
  await ringOfBoth(page);
  await page.goto("/stores");
  await expect(rows(page)).toHaveCount(2);
  await expect(rowOf(page, EU_STORE)).toContainText("€");

  // Its owner revokes the EU key mid-session (the page is left first, so that nothing else meets the refusal).
  await page.goto("about:blank");
  await demo.revoke(KEYS.euAdmin);
  await page.goto("/stores");
  await expect(rowOf(page, EU_STORE)).toContainText("This key was revoked: remove it from your stores or add a new one.");
  await expect(rowOf(page, US_STORE)).toContainText("$");
  await expect(page.getByTestId("portfolio-totals")).toHaveText(/^USD \$[\d,.]+ \(1 store\)$/);
  await violationsInBothSchemes(page, "all stores with a revoked key");
});

test("removing the EU key from the ring removes its row", async ({ page }) => {
  await ringOfBoth(page);
  await page.goto("/stores");
  await expect(rows(page)).toHaveCount(2);
  await page.goto("/context");
  await page.getByRole("button", { name: `Remove ${EU_STORE}` }).click();
  await expect(page.getByRole("status").filter({ hasText: `Removed ${EU_STORE} from your key ring` })).toBeVisible();
  await page.goto("/stores");
  await expect(rows(page)).toHaveCount(1);
  await expect(rowOf(page, US_STORE)).toContainText("$");
  await expect(page.getByText(EU_STORE)).toHaveCount(0);
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "All stores" })).toHaveCount(0);
});

test("the CSV export holds the table's figures, row for row, money under its currency, with its manifest", async ({ page }) => {
  await ringOfBoth(page);
  await page.goto("/stores?range=last30&compare=year&sort=revenue");
  await expect(page.getByTestId("portfolio-totals")).toContainText("EUR");
  const exported = await exportWithManifest(page, "Export table (CSV)");
  const [header, ...records] = parseCsv(exported.csv.trimEnd());
  expect(records.map((record) => record[1])).toEqual(await storeOrder(page));
  for (const record of records) {
    const row = rowOf(page, record[1]!);
    const currency = record[2]!;
    const revenue = Number(record[header!.indexOf(`Revenue (${currency})`)]);
    await expect(row).toContainText(formatCurrency(revenue, currency));
    await expect(row).toContainText(Number(record[header!.indexOf("Orders")]).toLocaleString("en-US"));
    const change = Number(record[header!.indexOf("Revenue change (%)")]);
    await expect(row).toContainText(`${change < 0 ? "↓" : "↑"}${Math.abs(change).toFixed(1)}%`);
  }
  expect(exported.manifest).toMatchObject({ kind: "portfolio", compare: "year", row_count: 2 });
  expect(exported.manifestName).toBe(exported.name.replace(/\.csv$/, ".manifest.json"));
});
