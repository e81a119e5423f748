import type { Locator, Page } from "@playwright/test";
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

/** Checks one ranking against the raw rows; answers how many of its items were new or gone. */
async function expectRanking(section: Locator, label: string, expected: ReturnType<typeof ranking>["risers"]) {
  if (expected.length === 0) {
    await expect(section).toContainText(`Nothing ${label.split(" ")[0]}.`);
    return 0;
  }
  const items = section.getByRole("list", { name: new RegExp(`that ${label}$`) }).getByRole("button");
  await expect(items).toHaveCount(expected.length);
  for (const [index, item] of expected.entries()) {
    const button = items.nth(index);
    await expect(button).toHaveAttribute("data-key", item.key);
    expect(cents((await button.textContent())!), item.key).toBe(item.cents);
    if (item.presence === "both") await expect(button).not.toContainText(/\b(new|gone)\b/);
    else await expect(button).toContainText(item.presence);
  }
  return expected.filter((item) => item.presence !== "both").length;
}

const view = (from: string, to: string) => `/stores/${US_STORE}/products?range=custom&from=${from}&to=${to}&compare=previous`;

/** The panel of one range against the period before it (given here, not computed by the page's code). */
async function checkPanel(page: Page, [from, to]: [string, string], [earlierFrom, earlierTo]: [string, string]) {
  const [now, before] = await Promise.all([centsBy(from, to), centsBy(earlierFrom, earlierTo)]);
  await page.goto(view(from, to));
  const panel = page.locator("section", { has: page.getByRole("heading", { name: "Biggest changes" }) });
  await expect(panel).toBeVisible();
  expect(cents((await panel.getByTestId("net-change").textContent())!)).toBe(now.total - before.total);
  let newOrGone = 0;
  for (const [title, expected] of [
    ["Products", ranking(now.products, before.products)],
    ["Channels", ranking(now.channels, before.channels)],
  ] as const) {
    const section = panel.getByRole("region", { name: `${title}: biggest changes` });
    newOrGone += await expectRanking(section, "rose most", expected.risers);
    newOrGone += await expectRanking(section, "fell most", expected.fallers);
  }
  return { panel, products: ranking(now.products, before.products), channels: ranking(now.channels, before.channels), newOrGone };
}

test("biggest changes match sums of the raw rows of both periods; a click filters the page", async ({ signedInPage: page }) => {
  // A month against the 28 days before it: products and channels both rose and fell.
  const month = await checkPanel(page, ["2026-02-01", "2026-02-28"], ["2026-01-04", "2026-01-31"]);
  expect(month.products.risers.length).toBeGreaterThan(0);
  expect(month.products.fallers.length).toBeGreaterThan(0);

  const top = month.products.risers[0]!;
  await month.panel.locator(`[data-key="${top.key}"]`).first().click();
  await expect(page).toHaveURL(new RegExp(`product=${top.key}(&|$)`));
  await expect(page.getByRole("group", { name: "Active filters" }).getByRole("button", { name: /^Remove filter Product: / })).toBeVisible();
  await expect(page.getByTestId("product-row")).toHaveCount(1);
  await expect(page.getByTestId("product-row")).toContainText(top.key);

  await page.goto(view("2026-02-01", "2026-02-28"));
  const channel = month.channels.fallers[0]!;
  await month.panel.getByRole("list", { name: "Channels that fell most" }).locator(`[data-key="${channel.key}"]`).click();
  await expect(page).toHaveURL(new RegExp(`channel=${channel.key}(&|$)`));
  await expect(page.getByLabel("Channel", { exact: true })).toHaveValue(channel.key);
});

test("one day against the day before: products new in the period or gone from it say so", async ({ signedInPage: page }) => {
  const day = await checkPanel(page, ["2026-02-10", "2026-02-10"], ["2026-02-09", "2026-02-09"]);
  expect(day.newOrGone).toBeGreaterThan(0);
});

test("without a comparison period there is no biggest-changes panel", async ({ signedInPage: page }) => {
  await page.goto(PRODUCTS_PAGE.replace("&compare=previous", "&compare=off"));
  await expect(page.getByTestId("kpi-Revenue")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Biggest changes" })).toHaveCount(0);
});
