import type { Page } from "@playwright/test";
import { CLONE, clones, fillCloneForm, MANAGER_KEY, review, uniqueName } from "./support/actions";
import { demo } from "./support/demo";
import { expect, signInWithKey, test } from "./support/fixtures";

/**
 * The browser half of exactly-once: a clone attempt is kept on the server from the moment
 * "Clone campaign group" is pressed, so a reload, a closed tab or a second tab comes back to it
 * (sending, done, failed or unknown), never to an empty form that invites a second clone.
 */

/** The Idempotency-Key of every clone request the page sends. */
function recordCloneKeys(page: Page): string[] {
  const keys: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/clone-linkedin-campaign")) keys.push(request.headers()["idempotency-key"] ?? "");
  });
  return keys;
}

const clonesNamed = async (name: string) => (await clones()).filter((clone) => (clone as { name: string }).name === name);

test.describe("a clone attempt survives the page", () => {
  test("a reload on the review step keeps every field", async ({ page }) => {
    await signInWithKey(page, MANAGER_KEY, CLONE);
    const name = uniqueName("Kept on review");
    await fillCloneForm(page, { name, budget: "42.50" });
    await review(page);
    const body = await page.getByLabel("Request body").textContent();
    await page.reload();
    await expect(page.getByRole("heading", { name: "Review before cloning" })).toBeVisible();
    await expect(page.getByLabel("Request body")).toHaveText(body!);
    await page.getByRole("button", { name: "Back to edit" }).click();
    await expect(page.getByLabel("New name", { exact: true })).toHaveValue(name);
    await expect(page.getByLabel(/^Daily budget/)).toHaveValue("42.50");
    expect(await clonesNamed(name)).toHaveLength(0);
  });

  test("a reload while the clone is being made comes back to it, then to its result: one clone", async ({ page }) => {
    await signInWithKey(page, MANAGER_KEY, CLONE);
    const name = uniqueName("Reloaded mid-clone");
    await fillCloneForm(page, { name });
    await review(page);
    await demo.setFaults([{ route: "clone", latencyMs: 1_500, times: 1 }]);
    await page.getByRole("button", { name: "Clone campaign group" }).click();
    await page.waitForTimeout(100);
    await page.reload();
    // Never an empty form: the attempt is shown as it stands.
    await expect(page.getByLabel("Ad account ID")).toHaveCount(0);
    await expect(page.getByRole("heading", { name: "Cloned campaign group" })).toBeVisible({ timeout: 15_000 });
    await expect(page.getByRole("status").filter({ hasText: "Cloned as" })).toContainText(name);
    expect(await clonesNamed(name)).toHaveLength(1);

    await page.getByRole("button", { name: "Clone another campaign group" }).click();
    await expect(page.getByLabel("Ad account ID")).toHaveValue("");
  });

  test("a closed tab and a second tab find the attempt and its result", async ({ page, context }) => {
    await signInWithKey(page, MANAGER_KEY, CLONE);
    const name = uniqueName("Closed tab");
    await fillCloneForm(page, { name });
    await review(page);
    await demo.setFaults([{ route: "clone", latencyMs: 1_500, times: 1 }]);
    await page.getByRole("button", { name: "Clone campaign group" }).click();
    await page.waitForTimeout(150);
    await page.close();

    const second = await context.newPage();
    await second.goto(CLONE);
    await expect(second.getByLabel("Ad account ID")).toHaveCount(0);
    await expect(second.getByRole("heading", { name: /Cloning…|Cloned campaign group/ })).toBeVisible();
    await expect(second.getByRole("heading", { name: "Cloned campaign group" })).toBeVisible({ timeout: 15_000 });
    expect(await clonesNamed(name)).toHaveLength(1);
  });

  test("a clone kept but never sent (the page went away first) is sent with its own key, once", async ({ page }) => {
    const keys = recordCloneKeys(page);
    await signInWithKey(page, MANAGER_KEY, CLONE);
    const name = uniqueName("Never left");
    await fillCloneForm(page, { name });
    await review(page);
    // The attempt is kept, then the page goes away before its request leaves.
    await page.route("**/clone-linkedin-campaign", (route) => route.abort());
    const aborted = page.waitForEvent("requestfailed", (request) => request.url().endsWith("/clone-linkedin-campaign"));
    await page.getByRole("button", { name: "Clone campaign group" }).click();
    await aborted;
    await page.unroute("**/clone-linkedin-campaign");
    await page.reload();
    await expect(page.getByRole("status").filter({ hasText: "has not reached the analytics service" })).toBeVisible();
    await page.getByRole("button", { name: "Clone campaign group" }).click();
    await expect(page.getByRole("heading", { name: "Cloned campaign group" })).toBeVisible();
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    expect(await clonesNamed(name)).toHaveLength(1);
  });

  test("the review says when the same clone was made in the last day; sending anyway needs a confirmation and a new key", async ({
    page,
  }) => {
    const keys = recordCloneKeys(page);
    await signInWithKey(page, MANAGER_KEY, CLONE);
    const name = uniqueName("Made twice");
    await fillCloneForm(page, { name });
    await review(page);
    await page.getByRole("button", { name: "Clone campaign group" }).click();
    await expect(page.getByRole("heading", { name: "Cloned campaign group" })).toBeVisible();
    await page.getByRole("button", { name: "Clone another campaign group" }).click();

    await fillCloneForm(page, { name });
    await review(page);
    const warning = page.getByRole("alert").filter({ hasText: "This clone may already exist" });
    await expect(warning).toContainText("Cloned by");
    await expect(warning.getByRole("link", { name: "See it in Activity" })).toHaveAttribute("href", /\/activity\?entry=act_/);
    const send = page.getByRole("button", { name: "Clone campaign group" });
    await expect(send).toBeDisabled();
    await warning.getByLabel(/Clone again anyway/).check();
    await send.click();
    await expect(page.getByRole("heading", { name: "Cloned campaign group" })).toBeVisible();
    expect(keys).toHaveLength(2);
    expect(keys[1]).not.toBe(keys[0]);
    expect(await clonesNamed(name)).toHaveLength(2);
  });
});
