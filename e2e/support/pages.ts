import type { Locator, Page } from "@playwright/test";
import { describeDemo } from "@/demo-upstream/describe";
import { US_STORE } from "./demo";
import { expect } from "./fixtures";

export const PRODUCTS_PAGE = `/stores/${US_STORE}/products?range=custom&from=2026-01-01&to=2026-01-31&compare=previous`;

/** Every page of a signed-in user, with what shows once it has loaded. */
export const SIGNED_IN_PAGES: { name: string; path: string; ready: (page: Page) => Locator }[] = [
  { name: "context", path: "/context", ready: (page) => page.getByText(US_STORE).first() },
  { name: "all stores", path: "/stores", ready: (page) => page.getByTestId("portfolio-totals") },
  {
    name: "store overview",
    path: `/stores/${US_STORE}`,
    ready: (page) => page.getByRole("heading", { name: "Google Merchant Center" }).first(),
  },
  {
    name: "products",
    path: PRODUCTS_PAGE,
    ready: (page) => page.getByTestId("time-chart").locator(".recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value").first(),
  },
  {
    name: "products, both attributions",
    path: `${PRODUCTS_PAGE}&source=both`,
    ready: (page) => page.getByRole("table", { name: /credited to the conversion and to the first touch/ }),
  },
  { name: "tracking", path: `/stores/${US_STORE}/tracking`, ready: (page) => page.getByRole("button", { name: /^Remove / }).first() },
  { name: "clone", path: `/stores/${US_STORE}/campaigns/clone`, ready: (page) => page.getByLabel("Ad account ID") },
  { name: "activity", path: "/activity", ready: (page) => page.getByRole("heading", { name: "Activity", level: 1 }) },
  { name: "sign-ins", path: "/sign-ins", ready: (page) => page.getByRole("button", { name: "Sign out all other devices" }) },
  { name: "digests", path: `/stores/${US_STORE}/digests`, ready: (page) => page.getByRole("button", { name: "Schedule digest" }) },
  { name: "runs", path: "/runs", ready: (page) => page.getByRole("heading", { name: "Recent runs", level: 2 }) },
  { name: "outbox", path: "/outbox", ready: (page) => page.getByRole("heading", { name: "Outbox", level: 1 }) },
  { name: "alerts", path: `/stores/${US_STORE}/alerts`, ready: (page) => page.getByRole("heading", { name: "Alert rules" }) },
  { name: "inbox", path: "/inbox", ready: (page) => page.getByRole("heading", { name: "Inbox", level: 1 }) },
  // The main journeys' dashboard keeps no rollups: the page as a store with no restated day shows it.
  { name: "data changes", path: `/stores/${US_STORE}/data-changes`, ready: (page) => page.getByText("No data changes") },
  { name: "verify", path: `/stores/${US_STORE}/verify`, ready: (page) => page.getByRole("heading", { name: "Verify an export" }) },
];

export async function openPage(page: Page, target: (typeof SIGNED_IN_PAGES)[number]) {
  await page.goto(target.path);
  await expect(target.ready(page)).toBeVisible();
}

const [account] = describeDemo().adAccounts.filter((candidate) => candidate.storeUrl === US_STORE);
/** A paused campaign group of the US store's ad account: cloning it needs no typed confirmation. */
export const cloneSource = { accountId: account!.id, group: account!.campaignGroups.find((group) => group.status === "PAUSED")! };

/** How wide the page is beyond the window: 0 when nothing scrolls sideways. */
export const sidewaysOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
