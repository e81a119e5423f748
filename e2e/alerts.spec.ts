import AxeBuilder from "@axe-core/playwright";
import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { demo, US_STORE } from "./support/demo";
import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";

const ALERTS = `/stores/${US_STORE}/alerts`;

/** A local webhook receiver, as a team's would be: it keeps what arrives. */
let receiver: Server;
let received: { headers: IncomingHttpHeaders; body: string }[] = [];
test.beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
});
test.afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));
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
  received = [];
  await cleanSlate(signedInPage);
});

/** A few days back, so the store's "yesterday" falls inside the drop in any time zone. */
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

test("a rule is made with its backtest, fires once when a channel's sales stop, lands in the inbox and at the webhook", async ({
  signedInPage: page,
}) => {
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/alerts`;
  await page.goto(ALERTS);
  await expect(page.getByText("No alert rules yet")).toBeVisible();
  await page.getByRole("button", { name: "New rule" }).click();
  const form = page.getByRole("form", { name: "Alert rule" });
  await form.getByLabel("Name").fill("Facebook revenue");
  await form.getByLabel("Of", { exact: true }).selectOption("channel");
  await form.getByLabel("Channel").fill("facebook");
  await form.getByLabel("Direction").selectOption("down");
  await form.getByLabel("Minimum volume").fill("200");
  await form.getByLabel("Webhook URL").fill(hookUrl);

  // The backtest over the last 90 days, drawn on the time chart.
  await form.getByRole("button", { name: "Run the backtest" }).click();
  await expect(form.getByText(/Over the last 90 periods this rule would/)).toBeVisible({ timeout: 20_000 });
  await expect(form.getByTestId("backtest-chart").locator("svg.recharts-surface")).toBeVisible();
  const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
  expect(axe.violations.filter((violation) => ["serious", "critical"].includes(violation.impact ?? "")).map((v) => v.id)).toEqual([]);
  await form.getByRole("button", { name: "Save the rule" }).click();
  await expect(page.getByRole("link", { name: "Facebook revenue" })).toBeVisible();

  // Facebook's sales stop: the backtest of the saved rule now shows it, and "Check now" fires it.
  await demo.setAnomalies([{ storeUrl: US_STORE, channel: "facebook", from: daysAgo(4) }]);
  await page.getByRole("button", { name: "Check now" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Checked 1 rule: 1 fired" })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText("Firing")).toBeVisible();

  // One notification per episode: checked again while it holds, nothing more.
  await page.getByRole("button", { name: "Check now" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Checked 1 rule: 0 fired, 0 resolved" })).toBeVisible({ timeout: 20_000 });

  // The inbox: the badge in the header, the notification with what moved, read and unread.
  const inboxLink = page.getByRole("link", { name: "Inbox, 1 unread" });
  await expect(inboxLink).toBeVisible();
  await inboxLink.click();
  await expect(page).toHaveURL(/\/inbox$/);
  const item = page.getByRole("listitem", { name: /^Unread: Facebook revenue: revenue of channel facebook fell to/ });
  await expect(item).toBeVisible();
  await expect(item.getByText("What moved")).toBeVisible();
  await expect(item.getByText(/^Channel facebook: .* of the change\)$/)).toBeVisible();
  await item.getByRole("button", { name: "Mark as read" }).click();
  await expect(page.getByRole("link", { name: "Inbox", exact: true })).toBeVisible();
  await expect(page.getByTestId("inbox-badge")).toHaveCount(0);

  // The webhook arrived once (posted by the background queue), in Slack's shape, signed with the rule's secret shown on its page.
  await expect.poll(() => received.length, { timeout: 15_000 }).toBe(1);
  const [hook] = received;
  expect(JSON.parse(hook!.body)).toMatchObject({ text: expect.stringContaining("Facebook revenue"), blocks: expect.any(Array) });
  await page.goto(ALERTS);
  await page.getByRole("link", { name: "Facebook revenue" }).click();
  const secret = (await page.locator("code").first().textContent())!.trim();
  const expected = createHmac("sha256", secret).update(`${hook!.headers["x-dashboard-timestamp"]}.${hook!.body}`).digest("hex");
  expect(hook!.headers["x-dashboard-signature"]).toBe(`v1=${expected}`);

  // On the rule's page, the backtest now marks the drop's days.
  await page.getByRole("button", { name: "Run the backtest" }).click();
  await expect(page.getByTestId("backtest-dates")).toContainText(daysAgo(4), { timeout: 20_000 });
});

test("a rule is muted and snoozed from the list, and a muted rule is not checked", async ({ signedInPage: page }) => {
  const created = await page.request.post(`/api/stores/${US_STORE}/alerts`, {
    headers: { origin: new URL(page.url()).origin },
    data: {
      name: "Store orders",
      metric: "orders",
      target: { kind: "store" },
      savedViewId: null,
      granularity: "day",
      condition: { kind: "threshold", operator: "above", threshold: 0 },
      emails: [],
      webhookUrl: null,
    },
  });
  expect(created.status()).toBe(201);
  await page.goto(ALERTS);
  await page.getByRole("button", { name: "Snooze 24 h Store orders" }).click();
  await expect(page.getByText(/^Snoozed until /)).toBeVisible();
  await page.getByRole("button", { name: "End snooze Store orders" }).click();
  await expect(page.getByText(/^Snoozed until /)).toHaveCount(0);
  await page.getByRole("button", { name: "Mute Store orders" }).click();
  await expect(page.getByText("Muted", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Check now" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Checked 0 rules" })).toBeVisible({ timeout: 20_000 });
  await page.getByRole("button", { name: "Unmute Store orders" }).click();
  await page.getByRole("button", { name: "Check now" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Checked 1 rule: 1 fired" })).toBeVisible({ timeout: 20_000 });
  // Deleted from its page, it leaves the list.
  await page.getByRole("link", { name: "Store orders" }).click();
  await page.getByRole("button", { name: "Delete this rule" }).click();
  await expect(page).toHaveURL(/\/alerts$/);
  await expect(page.getByRole("link", { name: "Store orders" })).toHaveCount(0);
});
