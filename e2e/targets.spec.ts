import { E2E_DEMO_UPSTREAM_PORT } from "../playwright.config";
import { KEYS, US_STORE } from "./support/demo";
import { expect, test } from "./support/fixtures";
import { sidewaysOverflow } from "./support/pages";

const upstream = (path: string) =>
  fetch(`http://127.0.0.1:${E2E_DEMO_UPSTREAM_PORT}/v1${path}`, { headers: { "x-api-key": KEYS.admin } }).then((r) => r.json());

/** Month-to-date revenue in cents, in the store's zone, summed here from the raw rows. */
async function monthToDateCents(channel?: string) {
  const profile = (await upstream(`/store-data/${US_STORE}`)) as { timezone: string };
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: profile.timezone }).format(new Date());
  const rows = (await upstream(`/ad-metrics/${US_STORE}/products?startDate=${today.slice(0, 8)}01&endDate=${today}`)) as {
    channel: string;
    revenue: number;
  }[];
  return rows.filter((row) => !channel || row.channel === channel).reduce((total, row) => total + Math.round(row.revenue * 100), 0);
}

const dollars = (cents: number) => `$${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`a monthly target paces the month to date and projects to its end, at ${viewport.width} px`, async ({ signedInPage: page }) => {
    await page.setViewportSize(viewport);
    await page.goto(`/stores/${US_STORE}`);
    const card = page
      .getByRole("region", { name: "Revenue target" })
      .or(page.locator("section").filter({ has: page.getByRole("heading", { name: "Revenue target" }) }));
    const form = card.getByRole("form", { name: "Set a revenue target" });
    await expect(form).toBeVisible();
    const amount = viewport.width === 1440 ? "250000" : "260000";
    await form.getByLabel(/^Target for /).fill(amount);
    await form.getByRole("button", { name: "Set the target" }).click();

    const store = page.getByTestId("pacing-store");
    await expect(store).toContainText(`$${Number(amount).toLocaleString("en-US")}.00 target`);
    await expect(store).toContainText(`Month to date ${dollars(await monthToDateCents())} against`);
    await expect(store).toContainText(/Projected by \w+ \d+, \d{4}: \$[\d,]+\.\d{2}, \d+% of/);
    await expect(store).toContainText(/Set by .+@.+, /);
    await expect(store).toContainText(/Ahead|On track|Behind/);
    expect(await sidewaysOverflow(page)).toBe(0);

    // A channel's own target, read from that channel's rows only.
    await form.getByLabel(/^Target for /).fill("40000");
    await form.getByLabel("For", { exact: true }).selectOption("google");
    await form.getByRole("button", { name: "Set the target" }).click();
    await expect(page.getByTestId("pacing-google")).toContainText(`Month to date ${dollars(await monthToDateCents("google"))} against`);

    // The products page shows the same pacing, and the target on its chart.
    await page.goto(`/stores/${US_STORE}/products?range=monthToDate`);
    await expect(page.getByTestId("pacing-store")).toContainText(`$${Number(amount).toLocaleString("en-US")}.00 target`);
    await expect(page.getByRole("list", { name: "Legend" }).getByText("Target", { exact: true })).toBeVisible();
    await expect(page.getByTestId("time-chart").locator(".recharts-line")).not.toHaveCount(0);
    expect(await sidewaysOverflow(page)).toBe(0);
  });
}
