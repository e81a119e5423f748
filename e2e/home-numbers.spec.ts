import { E2E_DEMO_UPSTREAM_PORT } from "../playwright.config";
import { KEYS, US_STORE } from "./support/demo";
import { expect, test } from "./support/fixtures";
import { expectedRevenueChange, revenueCentsBetween } from "./support/expected";
import { sidewaysOverflow } from "./support/pages";

const upstream = (path: string) =>
  fetch(`http://127.0.0.1:${E2E_DEMO_UPSTREAM_PORT}/v1${path}`, { headers: { "x-api-key": KEYS.admin } }).then((r) => r.json());

const shift = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** Revenue in cents of the last 7 days and the 7 before, in the store's zone, summed here from the raw rows. */
async function weekCents() {
  const profile = (await upstream(`/store-data/${US_STORE}`)) as { timezone: string };
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: profile.timezone }).format(new Date());
  const rows = (await upstream(`/ad-metrics/${US_STORE}/products?startDate=${shift(today, -13)}&endDate=${today}`)) as {
    date: string;
    revenue: number;
  }[];
  return {
    now: revenueCentsBetween(rows, shift(today, -6), today),
    before: revenueCentsBetween(rows, shift(today, -13), shift(today, -7)),
  };
}

const dollars = (cents: number) => `$${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`the home opens on the last 7 days at ${viewport.width} px`, async ({ signedInPage: page }) => {
    await page.setViewportSize(viewport);
    // A key that reaches one store: its home is that store's overview.
    await page.goto("/");
    await expect(page).toHaveURL(new RegExp(`/stores/${US_STORE.replace(/\./g, "\\.")}$`));
    const week = page.getByRole("list", { name: "Key figures of the last 7 days" });
    await expect(week.getByRole("listitem")).toHaveCount(4);
    const { now, before } = await weekCents();
    await expect(page.getByTestId("kpi-Revenue")).toHaveText(dollars(now));
    // The page's own formatter decides "↓6.0%" or "0.0%": the expectation holds on any day.
    const change = expectedRevenueChange(now, before, "the 7 days before");
    await expect(page.getByTestId("kpi-change-Revenue")).toContainText(change.text);
    await expect(page.getByTestId("kpi-change-Revenue")).toContainText(change.sentence);
    for (const label of ["Revenue", "Orders", "Units", "Average order value"])
      await expect(week.getByRole("img", { name: `${label} per day` })).toBeVisible();
    await expect(page.getByTestId("pulse-changes").getByRole("listitem").first()).toContainText(/^(Product|Channel) .+: [+−]\$/);
    await expect(page.getByTestId("store-health")).toContainText(/\d+ of \d+ tracking connections? enabled/);
    await expect(page.getByTestId("store-health")).toContainText(/Google Merchant Center: (Active|Paused|Error)/);
    expect(await sidewaysOverflow(page)).toBe(0);

    // The store list shows each store's week too.
    await page.goto("/context");
    const storeWeek = page.getByTestId("store-week").first();
    await expect(storeWeek).toContainText(dollars(now));
    await expect(storeWeek.getByRole("img", { name: "Revenue per day, last 7 days" })).toBeVisible();
    expect(await sidewaysOverflow(page)).toBe(0);
  });
}
