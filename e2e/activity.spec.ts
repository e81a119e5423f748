import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { demo, KEYS, US_STORE } from "./support/demo";
import { expect, signInWithKey, test } from "./support/fixtures";
import { cloneSource } from "./support/pages";

const ADMIN_EMAIL_PATTERN = /@/;

async function signIn(page: Page, next = "/activity") {
  await signInWithKey(page, KEYS.admin, next);
  await expect(page).toHaveURL(new RegExp(next.replace(/[?]/g, "\\?")));
}

/** Removes a connection through the dashboard's API, as another tab would; a made-up id fails with 404. */
async function removeThroughApi(page: Page, pixelId: string) {
  const origin = new URL(page.url()).origin;
  return page.request.delete(`/api/v1/pixels/${US_STORE}/${pixelId}`, { headers: { origin, "idempotency-key": randomUUID() } });
}

const entryRows = (page: Page) => page.getByRole("region", { name: /^Activity entries/ }).locator("tbody tr");

test("a removal's notice links to its entry, which names the connection and its channel, the outcome, who, when and both request ids", async ({
  page,
}) => {
  // The demo upstream's state holds each connection whole; its channel is what the entry must name.
  const [target] = (await demo.state()).pixels[US_STORE] as unknown as { id: string; name: string; channel: string }[];
  const channel = target!.channel;
  await signIn(page, `/stores/${US_STORE}/tracking`);
  await page.getByRole("button", { name: `Remove ${target!.name}` }).click();
  const dialog = page.getByRole("dialog", { name: "Remove tracking connection" });
  await dialog.getByLabel(/to confirm/).fill(target!.name);
  await dialog.getByRole("button", { name: "Remove tracking connection" }).click();
  const notice = page.getByRole("status").filter({ hasText: `Removed “${target!.name}”` });
  const requestId = await notice.getByTestId("request-id").textContent();

  await notice.getByRole("link", { name: "See it in Activity" }).click();
  await expect(page).toHaveURL(/\/activity\?entry=act_/);
  await expect(page.getByRole("heading", { name: "One entry" })).toBeVisible();
  const rows = entryRows(page);
  await expect(rows).toHaveCount(1);
  const row = rows.first();
  await expect(row.getByRole("rowheader")).toHaveText("Removed a tracking connection");
  await expect(row).toContainText(target!.name);
  await expect(row).toContainText(target!.id);
  await expect(row).toContainText(channel);
  await expect(row).toContainText("Succeeded");
  await expect(row).toContainText(ADMIN_EMAIL_PATTERN);
  // In the store's zone, named beside the time.
  await expect(row).toContainText("America/New_York");
  await expect(row).toContainText(requestId!);
  await expect(row.locator("code")).toHaveCount(3);
  await page.getByRole("link", { name: "Show all activity" }).click();
  await expect(page).toHaveURL(/\/activity$/);
  await expect(page.getByRole("heading", { name: "All entries" })).toBeVisible();
});

test("a clone's result links to its entry, which names the source, the new campaign group and the ad account", async ({ page }) => {
  await signIn(page, `/stores/${US_STORE}/campaigns/clone`);
  const name = `Activity names ${Date.now()}`;
  await page.getByLabel("Ad account ID").fill(cloneSource.accountId);
  await page.getByLabel("Source campaign group ID").fill(cloneSource.group.id);
  await expect(page.getByText(cloneSource.group.name, { exact: true })).toBeVisible();
  await page.getByLabel("New name", { exact: true }).fill(name);
  await page.getByLabel(/^Daily budget/).fill("20");
  await page.getByRole("button", { name: "Review the clone" }).click();
  await page.getByRole("button", { name: "Clone campaign group" }).click();
  await expect(page.getByRole("heading", { name: "Cloned campaign group" })).toBeVisible();
  const newId = ((await demo.state()).clones[0] as { campaignGroupId: string }).campaignGroupId;

  await page.getByRole("status").getByRole("link", { name: "See it in Activity" }).click();
  const row = entryRows(page).first();
  await expect(row.getByRole("rowheader")).toHaveText("Cloned a campaign group");
  for (const text of [cloneSource.group.name, cloneSource.group.id, name, newId, cloneSource.accountId, "Succeeded"]) {
    await expect(row).toContainText(text);
  }
});

test("filters are kept in the URL, survive a reload and narrow the list", async ({ page }) => {
  await signIn(page);
  const [real] = (await demo.state()).pixels[US_STORE]!;
  const succeeded = await removeThroughApi(page, real!.id);
  expect(succeeded.status()).toBe(200);
  const missing = `px_missing_${randomUUID()}`;
  const failed = await removeThroughApi(page, missing);
  expect(failed.status()).toBe(404);
  // Earlier tests act on the same seeded IDs: each entry is told apart by its own id.
  const entryOf = (response: typeof failed) => page.locator(`[id="entry-${response.headers()["x-audit-id"]}"]`);

  await page.reload();
  await page.getByLabel("Action").selectOption("tracking-connection.remove");
  await page.getByLabel("Outcome").selectOption("failed");
  await page.getByLabel("Store").fill(US_STORE);
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/action=tracking-connection.remove/);
  await expect(page).toHaveURL(/outcome=failed/);
  // Empty filters stay out of the URL.
  await expect(page).not.toHaveURL(/person=|from=|to=/);
  await expect(page.getByRole("heading", { name: "Matching entries" })).toBeVisible();

  await page.reload();
  await expect(page.getByLabel("Action")).toHaveValue("tracking-connection.remove");
  await expect(page.getByLabel("Outcome")).toHaveValue("failed");
  await expect(page.getByLabel("Store")).toHaveValue(US_STORE);
  const rows = entryRows(page);
  await expect(entryOf(failed)).toContainText(missing);
  await expect(entryOf(succeeded)).toHaveCount(0);
  for (const text of await rows.allTextContents()) expect(text).toContain("Failed");

  // A day range that holds nothing, then cleared.
  await page.goto("/activity?from=2001-01-01&to=2001-01-02");
  await expect(page.getByText("No entries match these filters")).toBeVisible();
  await page.getByRole("link", { name: "Clear filters" }).first().click();
  await expect(page).toHaveURL(/\/activity$/);
  await expect(entryOf(failed)).toBeVisible();
  await expect(entryOf(succeeded)).toBeVisible();
});

test("pages of 50, older ones on request; the CSV export holds the filtered list with its filters in the header", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page);
  const ids = Array.from({ length: 55 }, (_, index) => `px_page_${index}_${randomUUID()}`);
  for (let start = 0; start < ids.length; start += 5) {
    const statuses = await Promise.all(ids.slice(start, start + 5).map(async (id) => (await removeThroughApi(page, id)).status()));
    expect(statuses).toEqual([404, 404, 404, 404, 404].slice(0, statuses.length));
  }

  await page.goto("/activity?action=tracking-connection.remove&outcome=failed");
  const rows = entryRows(page);
  await expect(rows).toHaveCount(50);
  await expect(page.getByTestId("activity-count")).toHaveText("50 entries shown, older ones remain");
  await page.getByRole("button", { name: "Show older entries" }).click();
  await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(55);
  const texts = (await rows.allTextContents()).join("\n");
  for (const id of ids) expect(texts).toContain(id);
  // No entry twice across the page boundary.
  const shown = await rows.evaluateAll((elements) => elements.map((element) => element.id));
  expect(new Set(shown).size).toBe(shown.length);

  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export the filtered list as CSV" }).click();
  const csv = await readFile((await (await download).path())!, "utf8");
  const lines = csv.trim().split(/\r?\n/);
  expect(lines[0]).toMatch(/^# Activity of stores,(\S+,)+exported,/);
  expect(lines[1]).toBe("# Filters,action=tracking-connection.remove,outcome=failed");
  expect(lines[2]).toContain("time_utc,action,outcome");
  const body = lines.slice(3);
  for (const id of ids) expect(body.filter((line) => line.includes(id))).toHaveLength(1);
  for (const line of body) expect(line).toContain(",tracking-connection.remove,failed,");
});
