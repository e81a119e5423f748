import type { Page } from "@playwright/test";
import { describeDemo } from "@/demo-upstream/describe";
import { demo, KEYS, US_STORE } from "./demo";
import { expect, signInWithKey } from "./fixtures";

/** What the guarded-action journeys share: the pages, the seeded campaign group and the demo's state. */
/** Reads and clones campaigns, may not remove tracking connections. */
export const MANAGER_KEY = KEYS.manager;
export const TRACKING = `/stores/${US_STORE}/tracking`;
export const CLONE = `/stores/${US_STORE}/campaigns/clone`;
export const [account] = describeDemo().adAccounts.filter((candidate) => candidate.storeUrl === US_STORE);
export const source = account!.campaignGroups.find((group) => group.status === "PAUSED")!;

export const clones = async () => (await demo.state()).clones;
export const usPixels = async () => (await demo.state()).pixels[US_STORE]!;

export async function openTracking(page: Page, apiKey: string) {
  await signInWithKey(page, apiKey, TRACKING);
  await expect(page.getByRole("heading", { name: "Tracking connections" })).toBeVisible();
  await expect(page.getByRole("table")).toBeVisible();
}

export async function openRemoveDialog(page: Page, name: string) {
  await page.getByRole("button", { name: `Remove ${name}` }).click();
  const dialog = page.getByRole("dialog", { name: "Remove tracking connection" });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** A clone name no earlier test used: an identical clone made earlier would (rightly) be flagged at review. */
export const uniqueName = (prefix: string) => `${prefix} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

export async function fillCloneForm(page: Page, fields: { budget?: string; name?: string } = {}) {
  await page.getByLabel("Ad account ID").fill(account!.id);
  await page.getByLabel("Source campaign group ID").fill(source.id);
  // The source resolves through enrich, and the name follows it.
  await expect(page.getByText(source.name, { exact: true })).toBeVisible();
  await expect(page.getByLabel("New name", { exact: true })).toHaveValue(`Copy of ${source.name}`);
  if (fields.name) await page.getByLabel("New name", { exact: true }).fill(fields.name);
  await page.getByLabel(/^Daily budget/).fill(fields.budget ?? "75");
}

/**
 * Answers GET /api/session as for a key never refused, until `reveal()`: each test sees the first
 * refusal happen in the page, whatever earlier tests did with the same key.
 */
export async function hideEarlierRefusals(page: Page) {
  let hidden = true;
  await page.route("**/api/session", async (route) => {
    if (route.request().method() !== "GET" || !hidden) return route.continue();
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...((await response.json()) as object), refusals: [] } });
  });
  // As an upstream whose probes say nothing (it checks the input first): only a real try teaches the refusal.
  await page.route("**/action-permissions?*", async (route) => {
    if (!hidden) return route.continue();
    await route.fulfill({ json: { refusals: [] } });
  });
  return { reveal: () => (hidden = false) };
}

export async function review(page: Page) {
  await page.getByRole("button", { name: "Review the clone" }).click();
  await expect(page.getByRole("heading", { name: "Review before cloning" })).toBeVisible();
}
