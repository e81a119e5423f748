import { exportWithManifest } from "./support/exports";
import type { Page } from "@playwright/test";
import { describeDemo } from "@/demo-upstream/describe";
import { ODD_KEY_STRING, ODD_STORE } from "@/demo-upstream/odd-fixtures";
import { demo } from "./support/demo";
import { expect, signInWithKey, test } from "./support/fixtures";

/**
 * A journey through every page of the odd store, whose values are all contract-valid and
 * all unusual: no page falls into its error boundary, no panel fails, nothing throws
 * uncaught, and the pages say how they show the time zone and currency they could not use.
 */

const STORE = `/stores/${ODD_STORE.url}`;
const ZONE_NOTE = "Times shown in UTC: the store's time zone 'Eastern Time (US & Canada)' is not recognised.";
const CURRENCY_NOTE = "Amounts shown with two decimals: the currency 'USDT' is not recognised.";
const account = describeDemo(42, true).adAccounts.find((candidate) => candidate.storeUrl === ODD_STORE.url)!;
const source = account.campaignGroups[0]!;

async function expectWholePage(page: Page) {
  await expect(page.getByText("Something went wrong")).toHaveCount(0);
  await expect(page.getByText("This page could not be shown")).toHaveCount(0);
  await expect(page.getByTestId("panel-error")).toHaveCount(0);
}

test("every page of the odd store draws, says how it reads the store's zone and currency, and throws nothing", async ({ page }) => {
  test.setTimeout(90_000);
  const pageErrors: string[] = [];
  page.on("pageerror", (error) => pageErrors.push(`${page.url()}: ${error.message}`));
  await demo.setOdd(true);

  await signInWithKey(page, ODD_KEY_STRING);
  await expect(page).toHaveURL(/\/context$/);
  await expect(page.getByRole("link", { name: ODD_STORE.url })).toBeVisible();
  await expect(page.getByText("store-auditor (custom role)")).toBeVisible();
  await expectWholePage(page);

  // Overview: the raw values, each with its note; no catalogs.
  await page.goto(STORE);
  await expect(page.getByText(ZONE_NOTE)).toBeVisible();
  await expect(page.getByText(CURRENCY_NOTE)).toBeVisible();
  await expect(page.getByText("No catalog connections", { exact: true })).toBeVisible();
  await expectWholePage(page);

  // Product metrics: the default preset in UTC, then a month with a 10^12 order, refunds and odd channels.
  await page.goto(`${STORE}/products`);
  await expect(page.getByText(ZONE_NOTE)).toBeVisible();
  await expect(page.getByTestId("kpi-Revenue")).toBeVisible();
  await page.goto(`${STORE}/products?range=custom&from=2026-01-01&to=2026-01-31`);
  await expect(page.getByText(ZONE_NOTE)).toBeVisible();
  await expect(page.getByText(CURRENCY_NOTE)).toBeVisible();
  await expect(page.getByTestId("kpi-Revenue")).toHaveText(/^3,000,000,\d{3},\d{3}\.\d{2} USDT$/);
  // One area per channel, the unknown and the empty one included (an all-zero area has no height to be visible).
  await expect(page.getByTestId("time-chart").locator(".recharts-area-area")).toHaveCount(6);
  const shares = page.getByRole("list", { name: "Channel share of revenue" });
  for (const channel of ["fediverse-beta", "(empty)", "📺 TV (offline)", "linkedin"]) await expect(shares).toContainText(channel);
  await expect(page.getByTestId("product-row")).toHaveCount(6);
  await expect(page.getByText("Unnamed product")).toBeVisible();
  // A breakdown names the ad with its unknown status as it is.
  await page.getByRole("button", { name: /^Very long name/ }).click();
  await expect(page.getByText("In review", { exact: true })).toBeVisible();
  // The CSV says what the page says about the zone and currency.
  const { manifest } = await exportWithManifest(page, "Export raw rows (CSV)");
  expect(manifest.time_zone.note).toBe(ZONE_NOTE);
  expect(manifest.currency).toEqual({ store_value: "USDT", used: "USDT", note: CURRENCY_NOTE });
  await expectWholePage(page);

  // Tracking connections: none, and the note about the times the page would show.
  await page.goto(`${STORE}/tracking`);
  await expect(page.getByText("No tracking connections")).toBeVisible();
  await expect(page.getByText(ZONE_NOTE)).toBeVisible();
  await expectWholePage(page);

  // Clone: the times are not sent until the user confirms they are UTC.
  await page.goto(`${STORE}/campaigns/clone`);
  await expect(page.getByText(ZONE_NOTE)).toBeVisible();
  await page.getByLabel("Ad account ID").fill(account.id);
  await page.getByLabel("Source campaign group ID").fill(source.id);
  await expect(page.getByLabel("New name", { exact: true })).toHaveValue(`Copy of ${source.name}`);
  await page.getByLabel(/^Daily budget/).fill("75");
  await expect(page.getByLabel("Currency", { exact: true })).toHaveValue("");
  await page.getByLabel("Currency", { exact: true }).fill("USD");
  await page.getByRole("button", { name: "Review the clone" }).click();
  await expect(page.getByText(/confirm that the times are in UTC/)).toBeVisible();
  await expect(page.getByLabel("The start and end above are in UTC")).toBeFocused();
  await page.getByLabel("The start and end above are in UTC").check();
  await page.getByRole("button", { name: "Review the clone" }).click();
  await expect(page.getByRole("heading", { name: "Review before cloning" })).toBeVisible();
  await expect(page.getByText(ZONE_NOTE)).toBeVisible();
  await page.getByRole("button", { name: "Clone campaign group" }).click();
  await expect(page.getByRole("heading", { name: "Cloned campaign group" })).toBeVisible();
  await expectWholePage(page);
  const [clone] = (await demo.state()).clones;
  expect(clone?.storeUrl).toBe(ODD_STORE.url);

  // Activity: the clone, at its time in the store's zone as read, with the note.
  await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "More" }).click();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Activity" }).click();
  await expect(page.getByRole("heading", { name: "Activity" })).toBeVisible();
  await expect(page.getByText(`${ODD_STORE.url}: ${ZONE_NOTE}`)).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: clone!.campaignGroupId })).toContainText("UTC");
  await expectWholePage(page);

  expect(pageErrors).toEqual([]);
});
