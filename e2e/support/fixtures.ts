import { test as base, expect, type Page } from "@playwright/test";
import { demo, KEYS } from "./demo";

/**
 * Signs in through the real form, typing the key as a user would. Journeys start from the
 * context page unless they ask for another (without `next`, a one-store key opens on its store).
 */
export async function signInWithKey(page: Page, apiKey: string, next = "/context") {
  await page.goto(`/sign-in?next=${encodeURIComponent(next)}`);
  await page.getByLabel("API key").fill(apiKey);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

// A worker restarted after a failure starts elsewhere in the range, so it never reuses an address
// whose failed sign-ins an earlier worker left counted against the limit.
let clients = Math.floor(Math.random() * 60_000);

/** A client address of its own for each test, as a trusted proxy would report it. */
export function nextClientAddress(): string {
  clients++;
  return `198.51.${Math.floor(clients / 250) % 250}.${(clients % 250) + 1}`;
}

export const test = base.extend<{ signedInPage: Page }>({
  // Every test starts from the demo upstream's initial state, with no faults, from its own address.
  page: async ({ page }, use) => {
    await demo.reset();
    await page.setExtraHTTPHeaders({ "x-forwarded-for": nextClientAddress() });
    await use(page);
  },
  signedInPage: async ({ page }, use) => {
    await signInWithKey(page, KEYS.admin);
    await expect(page).toHaveURL(/\/context$/);
    await use(page);
  },
});

export { expect };
