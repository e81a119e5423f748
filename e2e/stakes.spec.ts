import { initialAdAccounts } from "@/demo-upstream/assets";
import { formatCurrency, formatNumber } from "@/shared/format";
import { addDays, todayIn } from "@/shared/metrics/date-range";
import { budgetExplanation } from "@/shared/campaign-budget";
import { E2E_DEMO_UPSTREAM_PORT } from "../playwright.config";
import { demo, KEYS, US_STORE } from "./support/demo";
import { expect, signInWithKey, test } from "./support/fixtures";
import { CLONE, account, fillCloneForm, openRemoveDialog, openTracking, source } from "./support/actions";

/** Issue 16, finding 8: actions that show their stakes. */

interface Pixel {
  id: string;
  name: string;
  channel: string;
  enabled: boolean;
}

/** The channel's orders and revenue over the last `days` store-local days, summed from the upstream's raw rows. */
async function attributed(channel: string, days: number) {
  const today = todayIn("America/New_York");
  const query = new URLSearchParams({ startDate: addDays(today, -(days - 1)), endDate: today, channel });
  const response = await fetch(`http://127.0.0.1:${E2E_DEMO_UPSTREAM_PORT}/v1/ad-metrics/${US_STORE}/products?${query}`, {
    headers: { "x-api-key": KEYS.admin },
  });
  const rows = (await response.json()) as { orders: number; revenue: number }[];
  const orders = rows.reduce((sum, row) => sum + row.orders, 0);
  const revenue = rows.reduce((sum, row) => sum + row.revenue, 0);
  return `${formatNumber(orders)} order${orders === 1 ? "" : "s"}, ${formatCurrency(revenue, "USD")}`;
}

test("the removal dialog shows, before the name is typed, what the channel is credited with and whether another connection remains", async ({
  page,
}) => {
  const pixels = (await demo.state()).pixels[US_STORE] as unknown as Pixel[];
  const target = pixels[0]!;
  const others = pixels.filter((pixel) => pixel.id !== target.id && pixel.channel === target.channel && pixel.enabled);
  await openTracking(page, KEYS.admin);
  const dialog = await openRemoveDialog(page, target.name);
  const stakes = dialog.getByTestId("removal-stakes");
  await expect(stakes).toBeVisible();
  await expect(dialog.getByLabel(/to confirm/)).toHaveValue("");
  await expect(stakes.locator("dt", { hasText: "Last 7 days" }).locator("+ dd")).toHaveText(await attributed(target.channel, 7));
  await expect(stakes.locator("dt", { hasText: "Last 30 days" }).locator("+ dd")).toHaveText(await attributed(target.channel, 30));
  await expect(stakes.locator("dt", { hasText: "Last attributed order" }).locator("+ dd")).not.toBeEmpty();
  await expect(dialog.getByText(/Days in the store's time zone, America\/New_York; amounts in USD\./)).toBeVisible();
  await expect(dialog.getByTestId("remaining-connection")).toHaveText(
    others.length > 0 ? new RegExp(`^Another enabled .* connection remains: `) : /^No other enabled .* connection remains/,
  );
});

test("the clone form and review say which budget the amount replaces and which is carried over; ACTIVE replaces the PAUSED note", async ({
  page,
}) => {
  const group = initialAdAccounts(42)
    .find((candidate) => candidate.id === account!.id)!
    .campaignGroups.find((candidate) => candidate.id === source.id)!;
  await signInWithKey(page, KEYS.admin, CLONE);
  await fillCloneForm(page, { budget: "1500" });
  const expected = budgetExplanation(1500, "USD", group);
  await expect(page.getByText(expected)).toBeVisible();
  expect(expected).toContain(`replacing the source's ${formatCurrency(group.dailyBudget, "USD")} per day`);

  const paused = page.getByText(/The clone is created PAUSED/);
  await expect(paused).toBeVisible();
  await page.getByLabel("Start delivering immediately (ACTIVE)").check();
  await expect(paused).toHaveCount(0);
  const warning = page.getByTestId("active-warning");
  await expect(warning).toContainText("up to $1,500.00 per day");
  await expect(warning).toContainText(
    group.lifetimeBudget > 0 ? `${formatCurrency(group.lifetimeBudget, "USD")} in total` : "no lifetime budget",
  );
  await page.getByLabel("Start delivering immediately (ACTIVE)").uncheck();
  await expect(paused).toBeVisible();

  await page.getByRole("button", { name: "Review the clone" }).click();
  await expect(page.getByTestId("budget-explanation")).toHaveText(expected);
});
