import type { Page } from "@playwright/test";
import { ALL_CHANNELS } from "@/demo-upstream/catalog";
import { demo, KEYS, US_STORE } from "./support/demo";
import { expect, nextClientAddress, signInWithKey, test } from "./support/fixtures";

/** The states of an alert rule that keep it from firing, as its author and colleagues see them (docs/features/bad-days.md). */

const ALERTS = `/stores/${US_STORE}/alerts`;

/** No rules of the store and nothing unread: a server reused between runs keeps what earlier runs made. */
async function cleanSlate(page: Page) {
  const origin = new URL(page.url()).origin;
  const { rules } = (await (await page.request.get(`/api/stores/${US_STORE}/alerts`)).json()) as { rules: { id: string }[] };
  for (const rule of rules) await page.request.delete(`/api/stores/${US_STORE}/alerts/${rule.id}`, { headers: { origin } });
  const inbox = (await (await page.request.get("/api/notifications")).json()) as { notifications: { id: string; read: boolean }[] };
  for (const note of inbox.notifications.filter((candidate) => !candidate.read)) {
    await page.request.patch(`/api/notifications/${note.id}`, { headers: { origin }, data: { read: true } });
  }
}

test.beforeEach(async ({ signedInPage }) => {
  await cleanSlate(signedInPage);
});

/** A UTC calendar day `days` before today. */
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

test("a rule whose saved view was deleted is paused: the list, its page (for its author and a colleague) and the inbox say so", async ({
  signedInPage: page,
  browser,
}) => {
  const origin = new URL(page.url()).origin;
  const viewName = `Mobile in January ${Date.now().toString(36)}`;
  const saved = await page.request.post(`/api/stores/${US_STORE}/saved-views`, {
    headers: { origin },
    data: { name: viewName, search: "range=custom&from=2026-01-01&to=2026-01-31&device=mobile" },
  });
  expect(saved.status()).toBe(201);
  const view = (await saved.json()) as { id: string };
  const created = await page.request.post(`/api/stores/${US_STORE}/alerts`, {
    headers: { origin },
    data: {
      name: "Mobile orders",
      metric: "orders",
      target: { kind: "store" },
      savedViewId: view.id,
      granularity: "day",
      condition: { kind: "threshold", operator: "above", threshold: 0 },
      emails: [],
      webhookUrl: null,
    },
  });
  expect(created.status()).toBe(201);
  const rule = (await created.json()) as { id: string; createdByEmail: string };
  expect((await page.request.delete(`/api/stores/${US_STORE}/saved-views/${view.id}`, { headers: { origin } })).ok()).toBe(true);

  // The list marks it, and says why.
  await page.goto(ALERTS);
  const row = page.getByRole("listitem").filter({ has: page.getByRole("link", { name: "Mobile orders" }) });
  await expect(row.getByText("Paused: saved view deleted", { exact: true })).toBeVisible();
  await expect(row.getByTestId("rule-paused")).toContainText(`its saved view “${viewName}” was deleted`);

  // Checked, it is not judged (rather than read for the whole store), and the inbox says it once.
  await page.getByRole("button", { name: "Check now" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Checked 0 rules: 0 fired, 0 resolved, 1 could not be checked." })).toBeVisible({
    timeout: 20_000,
  });
  await page.getByRole("button", { name: "Check now" }).click();
  await expect(page.getByRole("status").filter({ hasText: "1 could not be checked" })).toBeVisible({ timeout: 20_000 });
  await page.goto("/inbox");
  const notices = page.getByRole("listitem").filter({ hasText: `“Mobile orders”: Paused: its saved view “${viewName}” was deleted` });
  await expect(notices).toHaveCount(1);
  await expect(notices.getByText("Paused", { exact: true })).toBeVisible();
  await expect(notices).toContainText("Choose another saved view or the whole store to resume it.");
  await notices.getByRole("link", { name: "Open the rule" }).click();

  // Its page, for its author: why, naming the view, and that they may choose another.
  await expect(page).toHaveURL(new RegExp(`/alerts/${rule.id}$`));
  const paused = page.getByTestId("rule-paused");
  await expect(paused).toContainText(`Paused: its saved view “${viewName}” was deleted, so the rule is not checked`);
  await expect(paused).toContainText("Choose another saved view, or the whole store, below and save to resume it.");

  // For a colleague of the organization: the same reason, and who may resume it.
  const other = await browser.newContext({ extraHTTPHeaders: { "x-forwarded-for": nextClientAddress() } });
  const colleague = await other.newPage();
  await signInWithKey(colleague, KEYS.manager, `/stores/${US_STORE}/alerts/${rule.id}`);
  const theirs = colleague.getByTestId("rule-paused");
  await expect(theirs).toContainText(`its saved view “${viewName}” was deleted`);
  await expect(theirs).toContainText(
    `${rule.createdByEmail}, whose grant it runs through, may choose another saved view or the whole store.`,
  );
  await other.close();
});

test("an anomaly rule on a store with two weeks of history is learning, and its backtest says so", async ({ signedInPage: page }) => {
  // No sale in any channel from 70 to 17 days ago: the store's history, as the rule sees it, starts two weeks back.
  await demo.setAnomalies(ALL_CHANNELS.map((channel) => ({ storeUrl: US_STORE, channel, from: daysAgo(70), to: daysAgo(17), keep: 0 })));
  await page.goto(ALERTS);
  await page.getByRole("button", { name: "New rule" }).click();
  const form = page.getByRole("form", { name: "Alert rule" });
  await form.getByLabel("Name").fill("Store orders, unusual");
  await form.getByLabel("Metric").selectOption("orders");
  await form.getByLabel("Direction").selectOption("down");
  await form.getByRole("button", { name: "Run the backtest" }).click();
  await expect(form.getByTestId("backtest-learning")).toHaveText(
    "Learning (2 of 4 weeks): an anomaly rule fires only once 4 earlier weeks of the same weekday have data.",
    { timeout: 20_000 },
  );
  await form.getByRole("button", { name: "Save the rule" }).click();

  // Saved, its page's backtest says the same.
  await page.getByRole("link", { name: "Store orders, unusual" }).click();
  await page.getByRole("button", { name: "Run the backtest" }).click();
  await expect(page.getByTestId("backtest-learning")).toContainText("Learning (2 of 4 weeks)", { timeout: 20_000 });
});
