import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { formatCurrency } from "@/shared/format";
import { E2E_DEMO_UPSTREAM_PORT } from "../playwright.config";
import { demo, EU_STORE, KEYS, US_STORE } from "./support/demo";
import { expect, signInWithKey, test } from "./support/fixtures";

/** Reads the demo upstream directly, with the key of the store asked about. */
const upstream = (path: string, apiKey: string) =>
  fetch(`http://127.0.0.1:${E2E_DEMO_UPSTREAM_PORT}/v1${path}`, { headers: { "x-api-key": apiKey } }).then((r) => r.json());

const shift = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** A store's revenue of the last 7 days in its own zone, summed here from the raw rows, as the page's formatter writes it. */
async function weekRevenue(store: string, apiKey: string): Promise<string> {
  const profile = (await upstream(`/store-data/${store}`, apiKey)) as { timezone: string; currency: string };
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: profile.timezone }).format(new Date());
  const rows = (await upstream(`/ad-metrics/${store}/products?startDate=${shift(today, -6)}&endDate=${today}`, apiKey)) as {
    revenue: number;
  }[];
  const cents = rows.reduce((total, row) => total + Math.round(row.revenue * 100), 0);
  return formatCurrency(cents / 100, profile.currency);
}

/** Removes one of the store's tracking connections through the dashboard's API: an Activity entry of that store. */
async function removeConnection(page: Page, store: string) {
  const [target] = (await demo.state()).pixels[store]!;
  const origin = new URL(page.url()).origin;
  const response = await page.request.delete(`/api/v1/pixels/${store}/${target!.id}`, {
    headers: { origin, "idempotency-key": randomUUID() },
  });
  expect(response.status()).toBe(200);
}

const storeRow = (page: Page, store: string) => page.getByRole("row").filter({ has: page.getByRole("link", { name: store }) });

test("one person holds the keys of two stores: both stores' figures, Activity names each key, removing one closes its pages", async ({
  page,
}) => {
  await signInWithKey(page, KEYS.admin);
  await expect(page).toHaveURL(/\/context$/);
  const ring = page.locator("section").filter({ has: page.getByRole("heading", { name: "Key ring" }) });
  await expect(ring).toContainText("holds 1 of at most 20 keys");

  // Add a store: the EU store's key, typed into a real form.
  await page.getByLabel("Add a store: its API key").fill(KEYS.euAdmin);
  await page.getByRole("button", { name: "Add a store", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/context\\?added=${encodeURIComponent(EU_STORE).replace(/\./g, "\\.")}$`));
  expect(page.url()).not.toContain(KEYS.euAdmin);
  await expect(page.getByRole("status").filter({ hasText: `Added ${EU_STORE} to your key ring.` })).toBeVisible();
  await expect(ring).toContainText("holds 2 of at most 20 keys");

  // Both stores, each with its own week, read with its own key.
  for (const [store, key] of [
    [US_STORE, KEYS.admin],
    [EU_STORE, KEYS.euAdmin],
  ] as const) {
    await expect(storeRow(page, store).getByTestId("store-week")).toContainText(await weekRevenue(store, key));
  }

  // Adding the same store again replaces nothing, and says so.
  await page.getByLabel("Add a store: its API key").fill(KEYS.euAdmin);
  await page.getByRole("button", { name: "Add a store", exact: true }).click();
  await expect(page.getByRole("alert").filter({ hasText: "That store is already in your key ring" })).toBeVisible();

  // Activity lists an action of each store, and which key acted.
  await removeConnection(page, US_STORE);
  await removeConnection(page, EU_STORE);
  await page.goto("/activity");
  const actingKeys = page.getByTestId("acting-key");
  for (const store of [US_STORE, EU_STORE]) await expect(actingKeys.filter({ hasText: `${store} · key ` }).first()).toBeVisible();
  for (const text of await actingKeys.allTextContents()) expect(text).toMatch(/ · key [0-9a-f]{6}$/);
  const html = await page.content();
  expect(html).not.toContain(KEYS.admin);
  expect(html).not.toContain(KEYS.euAdmin);

  // Removing the EU store closes its pages at once; the US store stays.
  await page.goto("/context");
  await page.getByRole("button", { name: `Remove ${EU_STORE}` }).click();
  await expect(page.getByRole("status").filter({ hasText: `Removed ${EU_STORE} from your key ring` })).toBeVisible();
  await expect(ring).toContainText("holds 1 of at most 20 keys");
  const closed = await page.goto(`/stores/${EU_STORE}`);
  expect(closed!.status()).toBe(404);
  const api = await page.request.get(`/api/v1/store-data/${EU_STORE}`);
  expect(api.status()).toBe(404);
  const open = await page.goto(`/stores/${US_STORE}`);
  expect(open!.status()).toBe(200);
});

test("an upstream refusal of one key of the ring drops only that store, and the next page names it", async ({ page }) => {
  await signInWithKey(page, KEYS.admin);
  await expect(page).toHaveURL(/\/context$/);
  await page.getByLabel("Add a store: its API key").fill(KEYS.euAdmin);
  await page.getByRole("button", { name: "Add a store", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: `Added ${EU_STORE} to your key ring.` })).toBeVisible();

  // Its owner revokes the EU key mid-session: the next read with it meets a 401. The page is left
  // first, so that no read of its own (the stores' weeks, the inbox) meets the 401 before this one.
  await page.goto("about:blank");
  await demo.revoke(KEYS.euAdmin);
  const refused = await page.request.get(`/api/v1/store-data/${EU_STORE}`);
  expect(refused.status()).toBe(404);
  expect(((await refused.json()) as { error: string }).error).toContain(`the key for ${EU_STORE}`);

  // The session stays, with the US store; the next page says which store left and why.
  await page.goto("/context");
  await expect(page.getByTestId("ring-notice")).toContainText(`refused the key for ${EU_STORE} (it has been revoked)`);
  await expect(page.locator("section").filter({ has: page.getByRole("heading", { name: "Key ring" }) })).toContainText(
    "holds 1 of at most 20 keys",
  );
  expect((await page.request.get(`/api/v1/store-data/${US_STORE}`)).status()).toBe(200);
  expect((await page.goto(`/stores/${EU_STORE}`))!.status()).toBe(404);
  // Told once.
  await page.goto("/context");
  await expect(page.getByTestId("ring-notice")).toHaveCount(0);
});
