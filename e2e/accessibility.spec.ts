import type { Page } from "@playwright/test";
import { violations, violationsInBothSchemes } from "./support/axe";
import { KEYS, US_STORE } from "./support/demo";
import { expect, signInWithKey, test } from "./support/fixtures";
import { cloneSource, openPage, PRODUCTS_PAGE, SIGNED_IN_PAGES } from "./support/pages";

// One of the longest files, of tests that need nothing from one another: they spread over the workers.
test.describe.configure({ mode: "parallel" });

/** Every input shown on the page has a label one can see (a radio's may wrap it). */
const inputsWithoutVisibleLabel = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLInputElement>("input:not([type=hidden]), select, textarea")]
      .filter((input) => input.getClientRects().length > 0 || input.closest("label")?.getClientRects().length)
      .filter(
        (input) =>
          ![...(input.labels ?? [])].some((label) => label.getBoundingClientRect().width > 1 && label.getBoundingClientRect().height > 1),
      )
      .map((input) => input.id || input.name || input.outerHTML.slice(0, 80)),
  );

for (const width of [390, 1440]) {
  test(`every page, dialog and review step passes axe, light and dark (${width} px)`, async ({ page }) => {
    // Every page, each read whole by axe and again for colour: the longest journeys of the suite.
    test.setTimeout(240_000);
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/sign-in");
    await expect(page.getByLabel("API key")).toBeVisible();
    await violationsInBothSchemes(page, "sign-in");

    await signInWithKey(page, KEYS.admin);
    await expect(page).toHaveURL(/\/context$/);
    for (const target of SIGNED_IN_PAGES) {
      await openPage(page, target);
      await violationsInBothSchemes(page, target.name);
    }

    await openPage(
      page,
      SIGNED_IN_PAGES.find((target) => target.name === "tracking")!,
    );
    // A button under the pointer keeps its contrast too (its hover colour is what axe sees).
    await page
      .getByRole("button", { name: /^Remove / })
      .first()
      .hover();
    await violationsInBothSchemes(page, "tracking, a Remove button hovered");
    await page
      .getByRole("button", { name: /^Remove / })
      .first()
      .click();
    await expect(page.getByRole("dialog", { name: "Remove tracking connection" })).toBeVisible();
    await violationsInBothSchemes(page, "remove dialog");

    await openPage(
      page,
      SIGNED_IN_PAGES.find((target) => target.name === "clone")!,
    );
    await page.getByLabel("Ad account ID").fill(cloneSource.accountId);
    await page.getByLabel("Source campaign group ID").fill(cloneSource.group.id);
    await expect(page.getByText(cloneSource.group.name, { exact: true })).toBeVisible();
    await page.getByLabel(/^Daily budget/).fill("75");
    await page.getByRole("button", { name: "Review the clone" }).click();
    await expect(page.getByRole("heading", { name: "Review before cloning" })).toBeVisible();
    await page.getByRole("button", { name: "Clone campaign group" }).hover();
    await violationsInBothSchemes(page, "clone review, its send button hovered");
  });
}

test("the Activity page with entries, filters and an entry link passes axe at 390 px", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 900 });
  await signInWithKey(page, KEYS.admin);
  await expect(page).toHaveURL(/\/context$/);
  // An entry of each kind, so the table (its scroll box, names, outcomes) is what axe checks.
  const origin = new URL(page.url()).origin;
  const removal = await page.request.delete(`/api/v1/pixels/${US_STORE}/px_a11y_missing`, {
    headers: { origin, "idempotency-key": crypto.randomUUID() },
  });
  expect(removal.status()).toBe(404);
  const [pixel] = ((await (await page.request.get(`/api/v1/pixels/${US_STORE}`)).json()) as { pixels: { id: string }[] }).pixels;
  const removed = await page.request.delete(`/api/v1/pixels/${US_STORE}/${pixel!.id}`, {
    headers: { origin, "idempotency-key": crypto.randomUUID() },
  });
  const auditId = removed.headers()["x-audit-id"];
  expect(auditId).toMatch(/^act_/);
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await page.goto("/activity?action=tracking-connection.remove");
    await expect(
      page
        .getByRole("region", { name: /^Activity entries/ })
        .locator("tbody tr")
        .first(),
    ).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
    expect(await violations(page), `activity, ${colorScheme}`).toEqual([]);
    expect(await inputsWithoutVisibleLabel(page), "activity filters").toEqual([]);
    await page.goto(`/activity?entry=${auditId}`);
    await expect(page.getByRole("region", { name: /^Activity entries/ }).locator("tbody tr")).toHaveCount(1);
    expect(await violations(page), `activity entry, ${colorScheme}`).toEqual([]);
  }
});

test("one h1 per page, the store's name on store pages beside its URL; every input with a visible label", async ({ page }) => {
  // It visits every page of a signed-in user, one after the other.
  test.setTimeout(120_000);
  await page.goto("/sign-in");
  await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
  expect(await inputsWithoutVisibleLabel(page), "sign-in").toEqual([]);
  await signInWithKey(page, KEYS.admin);
  await expect(page).toHaveURL(/\/context$/);
  const profile = (await (await page.request.get(`/api/v1/store-data/${US_STORE}`)).json()) as { name: string; url: string };
  expect(profile.name).toBeTruthy();
  for (const target of SIGNED_IN_PAGES) {
    await openPage(page, target);
    await expect(page.getByRole("heading", { level: 1 }), target.name).toHaveCount(1);
    expect(await inputsWithoutVisibleLabel(page), target.name).toEqual([]);
    if (target.path.startsWith("/stores/")) {
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(profile.name);
      await expect(page.getByTestId("store-url")).toHaveText(US_STORE);
    }
  }
});

test("KPI values are figures named by their label; filter buttons announce their values; every input has a visible label", async ({
  signedInPage: page,
}) => {
  await page.goto(`${PRODUCTS_PAGE}&country=US,DE`);
  for (const label of ["Revenue", "Orders", "Units", "Average order value", "Units per order"]) {
    const figure = page.getByRole("figure", { name: label, exact: true });
    await expect(figure).toBeVisible();
    await expect(figure).toContainText((await page.getByTestId(`kpi-${label}`).textContent())!);
  }
  await expect(page.getByRole("button", { name: "Country: United States (US), Germany (DE)", exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Device type", exact: true })).toBeVisible();
  expect(await inputsWithoutVisibleLabel(page)).toEqual([]);
  await page.getByRole("button", { name: /^Country/ }).click();
  await expect(page.getByRole("group", { name: "Country filter" })).toBeVisible();
  expect(await inputsWithoutVisibleLabel(page)).toEqual([]);
  await page.getByLabel("Date range").selectOption("custom");
  await expect(page.getByLabel("From")).toBeVisible();
  expect(await inputsWithoutVisibleLabel(page)).toEqual([]);
});

test("a filter checkbox and an attribution radio change at once, and the URL with them, without asking the server", async ({
  signedInPage: page,
}) => {
  await page.goto(PRODUCTS_PAGE);
  await expect(page.getByTestId("kpi-Revenue")).toBeVisible();
  // Any request for a new render of this page is counted (link prefetches of other pages are not): the view must not need one.
  let renders = 0;
  await page.route(/_rsc=/, async (route) => {
    const request = route.request();
    if (!request.headers()["next-router-prefetch"] && new URL(request.url()).pathname.endsWith("/products")) renders++;
    await route.continue();
  });
  await page.getByRole("button", { name: /^Device type/ }).click();
  const mobile = page.getByRole("group", { name: "Device type filter" }).getByLabel("mobile");
  await mobile.click();
  await expect(mobile).toBeChecked({ timeout: 1_000 });
  await expect(page).toHaveURL(/device=mobile/, { timeout: 1_000 });
  await expect(page.getByRole("button", { name: "Device type: mobile", exact: true })).toBeVisible();
  await page.keyboard.press("Escape");
  await page.getByText("Credit to the first touch").click();
  await expect(page.getByRole("radio", { name: "Credit to the first touch" })).toBeChecked({ timeout: 1_000 });
  await expect(page).toHaveURL(/source=first_touch/, { timeout: 1_000 });
  expect(renders).toBe(0);
  await page.unroute(/_rsc=/);
});

test("a picture that fails to load falls back to the user's initials", async ({ page }) => {
  // The demo user's picture is on another host: refused here, as a broken link would be.
  await page.route(/^https:\/\/avatars\.example\.com\//, (route) => route.abort());
  await signInWithKey(page, KEYS.admin);
  await expect(page).toHaveURL(/\/context$/);
  const card = page.locator("section", { has: page.getByRole("heading", { name: "Signed in as" }) });
  await expect(card.getByTestId("avatar-initials")).toHaveText("MC");
  await expect(card.locator("img")).toHaveCount(0);
});
