import { violationsInBothSchemes } from "./support/axe";
import { CLONE, MANAGER_KEY, openTracking, TRACKING, usPixels } from "./support/actions";
import { KEYS } from "./support/demo";
import { expect, signInWithKey, test } from "./support/fixtures";

/**
 * Issue 36, "Know before the person types": a control the key may not use is disabled with the
 * reason as soon as the page opens, learnt from a side-effect-free probe of the upstream
 * (docs/decisions/action-permissions.md), never after a name was typed.
 */
test.describe("actions the key may not take are unavailable before anything is typed", () => {
  for (const width of [1440, 390]) {
    test(`the read-only key: every Remove disabled with the reason, and no clone form, on the first visit (${width} px)`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      const before = await usPixels();
      const deletes: string[] = [];
      page.on("request", (request) => {
        if (request.method() === "DELETE" || request.url().includes("/clone-linkedin-campaign")) deletes.push(request.url());
      });
      await signInWithKey(page, KEYS.marketer, TRACKING);
      const note = page.getByRole("note", { name: "Removing tracking connections: unavailable" });
      await expect(note).toContainText("not allowed to delete tracking connections");
      const buttons = page.getByRole("button", { name: /^Remove / });
      await expect(buttons.first()).toBeVisible();
      for (const button of await buttons.all()) {
        await expect(button).toBeDisabled();
        await expect(button).toHaveAttribute("aria-describedby", "remove-refused");
      }
      await expect(page.getByRole("dialog")).toHaveCount(0);
      await page.screenshot({ path: `test-results/know-before-tracking-${width}-light.png`, fullPage: true });
      await violationsInBothSchemes(page, `tracking, read-only key, ${width} px`);

      await page.goto(CLONE);
      await expect(page.getByRole("note", { name: "Cloning campaign groups: unavailable" })).toContainText("not allowed to clone");
      await expect(page.getByLabel("Ad account ID")).toHaveCount(0);
      await expect(page.getByRole("button", { name: "Review the clone" })).toHaveCount(0);
      await page.emulateMedia({ colorScheme: "dark" });
      await page.screenshot({ path: `test-results/know-before-clone-${width}-dark.png`, fullPage: true });
      await violationsInBothSchemes(page, `clone, read-only key, ${width} px`);

      // Nothing was sent from the page, and the probes removed nothing.
      expect(deletes).toEqual([]);
      expect((await usPixels()).map((pixel) => pixel.id)).toEqual(before.map((pixel) => pixel.id));
    });
  }

  test("the manager: Remove unavailable, but the clone form offered; the admin: Remove opens its dialog", async ({ page }) => {
    await openTracking(page, MANAGER_KEY);
    await expect(page.getByRole("note", { name: "Removing tracking connections: unavailable" })).toBeVisible();
    const buttons = await page.getByRole("button", { name: /^Remove / }).all();
    expect(buttons.length).toBeGreaterThan(0);
    for (const button of buttons) await expect(button).toBeDisabled();
    await page.goto(CLONE);
    await expect(page.getByLabel("Ad account ID")).toBeVisible();
    await expect(page.getByRole("note", { name: "Cloning campaign groups: unavailable" })).toHaveCount(0);

    const [target] = await usPixels();
    await page.context().clearCookies();
    await openTracking(page, KEYS.admin);
    await expect(page.getByRole("note", { name: "Removing tracking connections: unavailable" })).toHaveCount(0);
    await page.getByRole("button", { name: `Remove ${target!.name}` }).click();
    await expect(page.getByRole("dialog", { name: "Remove tracking connection" })).toBeVisible();
  });

  test("a refusal learnt while the page stood open is checked as the dialog opens: no dialog, the reason in focus", async ({ page }) => {
    const [target] = await usPixels();
    // The page's first check says nothing (as an upstream that checks the input first); the check as the dialog opens refuses.
    let checks = 0;
    await page.route("**/action-permissions?*", async (route) => {
      checks += 1;
      if (checks === 1) return route.fulfill({ json: { refusals: [] } });
      return route.continue();
    });
    await signInWithKey(page, KEYS.marketer, TRACKING);
    const remove = page.getByRole("button", { name: `Remove ${target!.name}` });
    await expect(remove).toBeEnabled();
    await remove.click();
    const note = page.getByRole("note", { name: "Removing tracking connections: unavailable" });
    await expect(note).toBeFocused();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(remove).toBeDisabled();
    expect(checks).toBe(2);
  });
});
