import { test as base, expect, type Page } from "@playwright/test";
import { demo, KEYS } from "./demo";

/** Signs in through the real form, typing the key as a user would. */
export async function signInWithKey(page: Page, apiKey: string, next?: string) {
  await page.goto(next ? `/sign-in?next=${encodeURIComponent(next)}` : "/sign-in");
  await page.getByLabel("API key").fill(apiKey);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

export const test = base.extend<{ signedInPage: Page }>({
  // Every test starts from the demo upstream's initial state, with no faults.
  page: async ({ page }, use) => {
    await demo.reset();
    await use(page);
  },
  signedInPage: async ({ page }, use) => {
    await signInWithKey(page, KEYS.admin);
    await expect(page).toHaveURL(/\/context$/);
    await use(page);
  },
});

export { expect };
