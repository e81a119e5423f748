import { KEYS as DEMO_KEYS } from "@/demo-upstream/keys";
import { DEMO_DROP_CHANNEL, DEMO_DROP_STORE } from "@/demo-upstream/demo-drop";
import { expect, signInWithKey, test } from "./support/fixtures";

const AU_KEY = DEMO_KEYS.find((key) => key.storeUrl === DEMO_DROP_STORE && key.state === "active")!.key;
const ALERTS = `/stores/${DEMO_DROP_STORE}/alerts`;

for (const width of [1440, 390] as const) {
  test(`the demo's own drop fires an alert that speaks in names (${width} px)`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: 900 });
    await signInWithKey(page, AU_KEY, ALERTS);
    await expect(page.getByRole("heading", { name: "Alert rules" })).toBeVisible();
    const origin = new URL(page.url()).origin;
    // A server reused between runs keeps what earlier runs made.
    const { rules } = (await (await page.request.get(`/api/stores/${DEMO_DROP_STORE}/alerts`)).json()) as { rules: { id: string }[] };
    for (const rule of rules) await page.request.delete(`/api/stores/${DEMO_DROP_STORE}/alerts/${rule.id}`, { headers: { origin } });
    const inbox = (await (await page.request.get("/api/notifications")).json()) as { notifications: { id: string; read: boolean }[] };
    for (const note of inbox.notifications.filter((candidate) => !candidate.read))
      await page.request.patch(`/api/notifications/${note.id}`, { headers: { origin }, data: { read: true } });
    await page.reload();

    // The grant is offered here, in the same words as on the Digests page.
    const consent = page.getByText(/^Digests and alert rules are read while nobody is signed in/);
    await expect(consent).toBeVisible();
    const here = await consent.textContent();
    await expect(page.getByRole("button", { name: "Grant read access" })).toBeVisible();
    await page.goto(`/stores/${DEMO_DROP_STORE}/digests`);
    await expect(page.getByText(/^Digests and alert rules are read while nobody is signed in/)).toHaveText(here!);
    await page.goto(ALERTS);

    // A rule on the channel the demo drops, made with its backtest.
    await page.getByRole("button", { name: "New rule" }).click();
    const form = page.getByRole("form", { name: "Alert rule" });
    await form.getByLabel("Name").fill("Facebook sales");
    await form.getByLabel("Of", { exact: true }).selectOption("channel");
    await form.getByLabel("Channel").fill(DEMO_DROP_CHANNEL);
    await form.getByLabel("Direction").selectOption("down");
    await form.getByLabel("Minimum volume").fill("50");
    await form.getByRole("button", { name: "Run the backtest" }).click();
    const count = form.getByTestId("backtest-count");
    await expect(count).toBeVisible({ timeout: 30_000 });
    // The headline's count is the number of days marked.
    const marked = await form.getByRole("table", { name: "Periods the rule would have fired on" }).locator("tbody tr").count();
    expect(marked).toBeGreaterThan(0);
    await expect(count).toHaveText(`${marked} ${marked === 1 ? "period" : "periods"}`);
    await expect(form.getByTestId("backtest-chart").locator(".recharts-reference-dot")).toHaveCount(marked);
    await form.getByRole("button", { name: "Save the rule" }).click();
    await expect(page.getByRole("link", { name: "Facebook sales" })).toBeVisible();

    await page.getByRole("button", { name: "Check now" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Checked 1 rule: 1 fired" })).toBeVisible({ timeout: 30_000 });

    await page.goto("/inbox");
    const item = page.getByRole("listitem", { name: /^Unread: Facebook sales: revenue of channel facebook fell to/ });
    await expect(item).toBeVisible();
    await expect(item.getByText("Alert", { exact: true })).toBeVisible();
    // It says what the baseline is.
    await expect(item).toContainText(/against A?\$[\d,.]+ \(the median of the same weekday \(\w+day\) over \d weeks\)/);
    // Products are named as the product table names them, never by their ID alone.
    const products = item.getByRole("listitem").filter({ hasText: /^Product / });
    await expect(products.first()).toBeVisible();
    for (const line of await products.allTextContents()) expect(line).not.toMatch(/^Product \d{6,}:/);
  });
}
