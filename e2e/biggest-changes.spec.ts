import type { Locator } from "@playwright/test";
import { E2E_DEMO_UPSTREAM_PORT } from "../playwright.config";
import { KEYS, US_STORE } from "./support/demo";
import { expect, test } from "./support/fixtures";
import { PRODUCTS_PAGE } from "./support/pages";

interface Row {
  product_id: string;
  channel: string;
  revenue: number;
}

/** Revenue in cents by product and by channel, summed here from the demo upstream's raw rows. */
async function centsBy(startDate: string, endDate: string) {
  const url = `http://127.0.0.1:${E2E_DEMO_UPSTREAM_PORT}/v1/ad-metrics/${US_STORE}/products?startDate=${startDate}&endDate=${endDate}`;
  const rows = (await (await fetch(url, { headers: { "x-api-key": KEYS.admin } })).json()) as Row[];
  const sum = (key: (row: Row) => string) => {
    const cents = new Map<string, number>();
    for (const row of rows) cents.set(key(row), (cents.get(key(row)) ?? 0) + Math.round(row.revenue * 100));
    return cents;
  };
  return {
    products: sum((row) => row.product_id),
    channels: sum((row) => row.channel),
    total: rows.reduce((t, r) => t + Math.round(r.revenue * 100), 0),
  };
}

function ranking(now: Map<string, number>, before: Map<string, number>) {
  const all = [...new Set([...now.keys(), ...before.keys()])].map((key) => ({
    key,
    cents: (now.get(key) ?? 0) - (before.get(key) ?? 0),
    presence: !before.has(key) ? "new" : !now.has(key) ? "gone" : "both",
  }));
  const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : 1);
  return {
    risers: all
      .filter((item) => item.cents > 0)
      .sort((a, b) => b.cents - a.cents || byKey(a, b))
      .slice(0, 5),
    fallers: all
      .filter((item) => item.cents < 0)
      .sort((a, b) => a.cents - b.cents || byKey(a, b))
      .slice(0, 5),
  };
}

/** "+$1,234.56" or "−$12.00" → signed cents */
const cents = (text: string) => {
  const match = /([+−])\$([\d,]+\.\d{2})/.exec(text)!;
  return (match[1] === "−" ? -1 : 1) * Math.round(Number(match[2]!.replace(/,/g, "")) * 100);
};

async function expectRanking(list: Locator, expected: ReturnType<typeof ranking>["risers"]) {
  const items = list.getByRole("button");
  await expect(items).toHaveCount(expected.length);
  for (const [index, item] of expected.entries()) {
    const button = items.nth(index);
    await expect(button).toHaveAttribute("data-key", item.key);
    expect(cents((await button.textContent())!), item.key).toBe(item.cents);
    if (item.presence === "both") await expect(button).not.toContainText(/\b(new|gone)\b/);
    else await expect(button).toContainText(item.presence);
  }
}

test("biggest changes match sums of the raw rows of both periods; a click filters the page", async ({ signedInPage: page }) => {
  const [now, before] = await Promise.all([centsBy("2026-01-01", "2026-01-31"), centsBy("2025-12-01", "2025-12-31")]);
  await page.goto(PRODUCTS_PAGE);
  const panel = page.locator("section", { has: page.getByRole("heading", { name: "Biggest changes" }) });
  await expect(panel).toBeVisible();
  expect(cents((await panel.getByTestId("net-change").textContent())!)).toBe(now.total - before.total);

  const products = ranking(now.products, before.products);
  const channels = ranking(now.channels, before.channels);
  expect(products.risers.length + products.fallers.length).toBeGreaterThan(0);
  await expectRanking(panel.getByRole("list", { name: "Products that rose most" }), products.risers);
  await expectRanking(panel.getByRole("list", { name: "Products that fell most" }), products.fallers);
  if (channels.risers.length) await expectRanking(panel.getByRole("list", { name: "Channels that rose most" }), channels.risers);
  if (channels.fallers.length) await expectRanking(panel.getByRole("list", { name: "Channels that fell most" }), channels.fallers);

  const top = products.risers[0] ?? products.fallers[0]!;
  await panel.locator(`[data-key="${top.key}"]`).first().click();
  await expect(page).toHaveURL(new RegExp(`product=${top.key}(&|$)`));
  await expect(page.getByRole("group", { name: "Active filters" }).getByRole("button", { name: /^Remove filter Product: / })).toBeVisible();
  await expect(page.getByTestId("product-row")).toHaveCount(1);
  await expect(page.getByTestId("product-row")).toContainText(top.key);

  await page.goto(PRODUCTS_PAGE);
  const channel = channels.risers[0] ?? channels.fallers[0]!;
  await panel
    .getByRole("list", { name: /^Channels that/ })
    .locator(`[data-key="${channel.key}"]`)
    .click();
  await expect(page).toHaveURL(new RegExp(`channel=${channel.key}(&|$)`));
  await expect(page.getByLabel("Channel", { exact: true })).toHaveValue(channel.key);
});

test("without a comparison period there is no biggest-changes panel", async ({ signedInPage: page }) => {
  await page.goto(PRODUCTS_PAGE.replace("&compare=previous", ""));
  await expect(page.getByTestId("kpi-Revenue")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Biggest changes" })).toHaveCount(0);
});
