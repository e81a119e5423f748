import { mkdirSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import type { Locator, Page } from "@playwright/test";
import { violationsInBothSchemes } from "./support/axe";
import { KEYS, US_STORE } from "./support/demo";
import { expect, signInWithKey, test } from "./support/fixtures";
import { usPixels } from "./support/actions";
import { exportWithManifest } from "./support/exports";
import { PRODUCTS_PAGE } from "./support/pages";

/** Issue 36, "A marketer's second week": one clock, phones that show the money, words, what was missing. */
const SHOTS = process.env.SHOTS_DIR;
const KUMO_STORE = "kumo-living.jp";

/**
 * Axe in both schemes, and (with SHOTS_DIR set) a screenshot in each for a person to look at. A message of
 * the Outbox is a frame that runs no script, where axe cannot run: the page around it is read (`withoutFrames`),
 * the message's own markup is checked by server/digests/render.test.ts.
 */
async function checkPage(page: Page, name: string, focus?: Locator, withoutFrames = false) {
  if (withoutFrames) {
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const results = await new AxeBuilder({ page })
        .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
        .exclude("iframe")
        .analyze();
      const serious = results.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
      expect(
        serious.map((violation) => violation.id),
        `${name}, ${scheme}`,
      ).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: "light" });
  } else await violationsInBothSchemes(page, name);
  if (!SHOTS) return;
  if (focus) await focus.scrollIntoViewIfNeeded();
  mkdirSync(SHOTS, { recursive: true });
  const width = page.viewportSize()!.width;
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `${SHOTS}/${name.replace(/\W+/g, "-")}-${width}-${scheme}.png`, fullPage: !focus });
  }
  await page.emulateMedia({ colorScheme: "light" });
}

const origin = (page: Page) => new URL(page.url()).origin;

/** An alert rule on the whole store's daily revenue against a threshold, telling only the inbox. */
const storeRule = (name: string, operator: "below" | "above", threshold: number) => ({
  name,
  metric: "revenue",
  target: { kind: "store" },
  savedViewId: null,
  granularity: "day",
  condition: { kind: "threshold", operator, threshold },
  emails: [],
  webhookUrl: null,
});

async function grantAndDigest(page: Page, name: string, search: string) {
  const headers = { origin: origin(page) };
  expect((await page.request.post(`/api/stores/${US_STORE}/grants`, { data: { consent: true }, headers })).status()).toBe(201);
  const view = await page.request.post(`/api/stores/${US_STORE}/saved-views`, { data: { name, search }, headers });
  expect(view.status()).toBe(201);
  const savedViewId = ((await view.json()) as { id: string }).id;
  const digest = await page.request.post(`/api/stores/${US_STORE}/digests`, {
    data: { savedViewId, cadence: "daily", localTime: "07:00", recipients: ["team@example.com"] },
    headers,
  });
  expect(digest.status()).toBe(201);
  return ((await digest.json()) as { id: string }).id;
}

for (const width of [1440, 390]) {
  test(`one clock (${width} px): a store's events in its zone, named; a person's own in theirs, said to be theirs`, async ({ page }) => {
    // Axe reads three pages in both schemes, one of them with a message in a frame: among the longest journeys.
    test.setTimeout(300_000);
    await page.setViewportSize({ width, height: 900 });
    await signInWithKey(page, KEYS.admin);
    await expect(page).toHaveURL(/\/context$/);

    await page.goto("/sign-ins");
    const signedIn = page.locator("time").first();
    await expect(signedIn).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s?[AP]M \S+ \(your time\)$/);
    await checkPage(page, "sign-ins");

    // A digest sent now: its Outbox message and its run, in the store's zone (New York), named.
    const id = await grantAndDigest(page, `Clock ${Date.now()}`, "range=custom&from=2026-01-01&to=2026-01-31&country=US");
    expect((await page.request.post(`/api/stores/${US_STORE}/digests/${id}/send`, { headers: { origin: origin(page) } })).status()).toBe(
      202,
    );
    await page.goto("/outbox");
    const message = page.locator("section").filter({ hasText: "To team@example.com" }).first();
    await expect(message).toBeVisible({ timeout: 20_000 });
    await expect(message.locator("time").first()).toHaveText(/\d{4}, \d{1,2}:\d{2}\s?[AP]M (EST|EDT|GMT-5|GMT-4)$/);
    // The e-mail's figures stay whole on a phone: no heading or figure of its table is cut.
    const cut = await message
      .frameLocator("iframe")
      .locator("table.figures tbody th, table.figures tbody td")
      .evaluateAll((cells) => cells.filter((cell) => cell.scrollWidth > cell.clientWidth + 1).map((cell) => cell.textContent));
    expect(cut).toEqual([]);
    const tableFits = await message
      .frameLocator("iframe")
      .locator("table.figures")
      .evaluate((table) => table.getBoundingClientRect().right <= table.ownerDocument.documentElement.clientWidth + 1);
    expect(tableFits).toBe(true);
    await checkPage(page, "outbox", message, true);

    await page.goto("/runs");
    const started = page
      .getByRole("region", { name: /^Recent runs/ })
      .locator("time")
      .first();
    await expect(started).toHaveText(/(EST|EDT|GMT-5|GMT-4)$/);
    // The Outcome heading is never cut: on a phone each run is a card, its values under their names.
    const outcome = page
      .getByRole("region", { name: /^Recent runs/ })
      .locator('td[data-label="Outcome"]')
      .first();
    await expect(outcome).toBeVisible();
    if (width === 390) {
      expect(await outcome.evaluate((cell) => getComputedStyle(cell, "::before").content)).toBe('"Outcome"');
    } else {
      const heading = page.getByRole("columnheader", { name: "Outcome" });
      expect(await heading.evaluate((cell) => cell.scrollWidth <= cell.clientWidth + 1)).toBe(true);
    }
    await checkPage(page, "runs", page.getByRole("heading", { name: "Recent runs" }));
  });
}

test("Verify names the export's day and time in the store's zone, in the one format", async ({ signedInPage: page }) => {
  test.setTimeout(90_000);
  await page.goto(PRODUCTS_PAGE);
  await expect(page.getByTestId("product-row").first()).toBeVisible();
  const exported = await exportWithManifest(page, "Export table (CSV)");
  await page.getByRole("link", { name: "Verify an export" }).click();
  await page.getByLabel("Exported file (.csv)").setInputFiles(exported.csvPath);
  await page.getByLabel("Its manifest (.manifest.json)").setInputFiles(exported.manifestPath);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByTestId("verdict")).toContainText(
    /exactly the one exported on [A-Z][a-z]{2} \d{1,2}, \d{4}, .+ (EST|EDT|GMT-5|GMT-4) \(same/,
  );
});

test("at 390 px the product table keeps Revenue in view beside the pinned product, its heading whole", async ({ signedInPage: page }) => {
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto(PRODUCTS_PAGE);
  const row = page.getByTestId("product-row").first();
  await expect(row).toBeVisible();
  const revenue = page.getByRole("columnheader", { name: /^Revenue/ }).first();
  const box = (await revenue.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  expect(await revenue.evaluate((cell) => cell.scrollWidth <= cell.clientWidth + 1)).toBe(true);
  const figure = (await row.locator("td").nth(1).boundingBox())!;
  expect(figure.x + figure.width).toBeLessThanOrEqual(390);
  await expect(row.locator("td").nth(1)).toHaveText(/^\$[\d,]+\.\d{2}$/);
  await checkPage(page, "products", page.getByRole("columnheader", { name: /^Revenue/ }).first());
});

for (const width of [1440, 390]) {
  test(`words (${width} px): Activity's intro and outcomes, a disabled connection's stakes, a stale catalog, readable disabled buttons`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: 900 });
    await signInWithKey(page, KEYS.admin);
    await expect(page).toHaveURL(/\/context$/);

    // A local change (an alert rule) succeeds with no answer from the service expected: never "no answer came".
    await page.request.post(`/api/stores/${US_STORE}/grants`, { data: { consent: true }, headers: { origin: origin(page) } });
    const rule = await page.request.post(`/api/stores/${US_STORE}/alerts`, {
      data: storeRule(`Words ${Date.now()}`, "below", 1),
      headers: { origin: origin(page) },
    });
    expect(rule.status(), await rule.text()).toBe(201);
    await page.goto("/activity");
    await expect(page.getByText(/alert rules added, changed, muted or deleted, digests scheduled, changed, deleted or sent/)).toBeVisible();
    const entry = page.locator("tbody tr").filter({ hasText: "Added an alert rule" }).first();
    await expect(entry).toContainText("Succeeded");
    await expect(entry).not.toContainText("no answer came");
    await checkPage(page, "activity");

    // The store's last connection is disabled: its stakes say it sends nothing now.
    const disabled = (await usPixels()).at(-1)!;
    await page.goto(`/stores/${US_STORE}/tracking`);
    await page
      .getByRole("button", { name: `Remove ${disabled.name}` })
      .first()
      .click();
    const dialog = page.getByRole("dialog", { name: "Remove tracking connection" });
    await expect(dialog.getByTestId("stakes-disabled")).toContainText("disabled and sends nothing now");
    await expect(dialog.getByTestId("disabled-stakes")).toContainText("removing it stops no events");
    await expect(dialog).not.toContainText("The store stops sending its events");
    await checkPage(page, "remove-disabled-connection");
    await page.keyboard.press("Escape");

    // A catalog last synchronized a year ago is not "Fine".
    await page.goto(`/stores/${US_STORE}`);
    await expect(page.getByTestId("store-health")).toContainText(
      "not synchronized for over a week (its last sync: last year): its products may be out of date",
    );
    await expect(page.getByText("Over a week old").first()).toBeVisible();
    await checkPage(page, "store-overview", page.getByTestId("store-health"));

    // "Sign out all other devices", disabled (as with no other device signed in), keeps its words readable:
    // at least 3:1 against its own fill; so does a disabled secondary button (the product table's Previous, on page 1).
    await page.goto("/sign-ins");
    const danger = page.getByRole("button", { name: "Sign out all other devices" });
    await danger.evaluate((element) => ((element as HTMLButtonElement).disabled = true));
    await expect(danger).toBeDisabled();
    await contrastAtLeast3(danger);
    await page.goto(PRODUCTS_PAGE);
    const previous = page.getByRole("button", { name: "Previous", exact: true });
    await expect(previous).toBeDisabled();
    await contrastAtLeast3(previous);
  });
}

/** The button's words against its own fill, light and dark: at least 3:1. */
async function contrastAtLeast3(button: Locator) {
  const page = button.page();
  // The colours at rest, not midway through a button's colour transition.
  await page.addStyleTag({ content: "*, *::before, *::after { transition: none !important; }" });
  {
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const ratio = await button.evaluate((element) => {
        const canvas = document.createElement("canvas");
        canvas.width = canvas.height = 1;
        const context = canvas.getContext("2d", { willReadFrequently: true })!;
        const rgb = (color: string) => {
          context.clearRect(0, 0, 1, 1);
          context.fillStyle = color;
          context.fillRect(0, 0, 1, 1);
          return [...context.getImageData(0, 0, 1, 1).data.slice(0, 3)];
        };
        const luminance = (color: string) => {
          const [r, g, b] = rgb(color).map((value) => {
            const channel = value / 255;
            return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
          });
          return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
        };
        const style = getComputedStyle(element);
        const [light, dark] = [luminance(style.color), luminance(style.backgroundColor)].sort((a, b) => b - a);
        return (light! + 0.05) / (dark! + 0.05);
      });
      expect(ratio, scheme).toBeGreaterThanOrEqual(3);
    }
    await page.emulateMedia({ colorScheme: "light" });
  }
}

for (const width of [1440, 390]) {
  test(`what was missing (${width} px): "?" lists the shortcuts, a store switcher, the week and quarter presets, the store's own organization`, async ({
    page,
  }) => {
    test.setTimeout(150_000);
    await page.setViewportSize({ width, height: 900 });
    await signInWithKey(page, KEYS.admin);
    await expect(page).toHaveURL(/\/context$/);

    const help = page.getByRole("button", { name: "Keyboard shortcuts" });
    await help.click();
    const dialog = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("Comparison on or off");
    await checkPage(page, "shortcuts-dialog");
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(help).toBeFocused();
    // The "?" key opens it from any page, outside a field.
    await page.keyboard.press("?");
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Close" }).click();

    // Another organization's store in the ring: the switcher offers it, and the header names its organization.
    await page.getByLabel("Add a store: its API key").fill(KEYS.kumoJp);
    await page.getByRole("button", { name: "Add a store", exact: true }).click();
    await expect(page.getByRole("status").filter({ hasText: `Added ${KUMO_STORE} to your key ring.` })).toBeVisible();
    await page.goto(`/stores/${US_STORE}/alerts`);
    const switcher = page.getByLabel("Go to store", { exact: true });
    await expect(switcher).toHaveValue(US_STORE);
    if (width === 1440) await expect(page.getByTestId("header-organization")).toContainText("Northwind");
    await switcher.selectOption(KUMO_STORE);
    await expect(page).toHaveURL(new RegExp(`/stores/${KUMO_STORE.replace(".", "\\.")}/alerts`));
    await expect(switcher).toHaveValue(KUMO_STORE);
    if (width === 1440) await expect(page.getByTestId("header-organization")).toContainText("Kumo");
    await checkPage(page, "header-switcher");

    // The week and quarter presets, in the store's days, on product metrics and All stores.
    await page.goto(`/stores/${US_STORE}/products`);
    const range = page.getByLabel("Date range");
    for (const label of ["This week", "Last week", "This quarter", "Last quarter"]) {
      await expect(range.locator("option", { hasText: label })).toHaveCount(1);
    }
    await range.selectOption({ label: "Last quarter" });
    await expect(page).toHaveURL(/range=lastQuarter/);
    await expect(page.getByTestId("kpi-Revenue")).toBeVisible();
    await page.goto("/stores?range=thisWeek");
    await expect(page.getByLabel("Date range")).toHaveValue("thisWeek");
    await expect(page.getByTestId("portfolio-totals")).toBeVisible();
    await checkPage(page, "all-stores-this-week");
  });
}

for (const width of [1440, 390]) {
  test(`a scheduled digest is changed in place (${width} px), its filter stated, recorded in Activity`, async ({ signedInPage: page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: 900 });
    const name = `Canada ${Date.now()}`;
    await grantAndDigest(page, name, "range=last30&country=CA");
    await page.goto(`/stores/${US_STORE}/digests`);
    const row = page.getByRole("list", { name: "Scheduled digests" }).getByRole("listitem").filter({ hasText: name });
    await expect(row.getByTestId("digest-shows")).toContainText("Country: Canada (CA)");
    await row.getByRole("button", { name: `Change the digest “${name}”` }).click();
    const form = row.getByRole("form", { name: `Change the digest “${name}”` });
    await expect(form.getByLabel(/^Recipients/)).toHaveValue("team@example.com");
    await checkPage(page, "digest-change");
    await form.getByLabel("How often").selectOption("weekly");
    await form.getByLabel("Weekday (weekly digests)").selectOption({ label: "Friday" });
    await form.getByLabel(/^Time, in/).fill("16:45");
    await form.getByLabel(/^Recipients/).fill("team@example.com, lead@example.com");
    await form.getByRole("button", { name: "Save changes" }).click();
    await expect(form).toBeHidden();
    await expect(row).toContainText("Every Friday at 16:45 (America/New_York)");
    await expect(row).toContainText("lead@example.com");
    await page.goto("/activity");
    const entry = page.locator("tbody tr").filter({ hasText: "Changed a digest" }).first();
    await expect(entry).toContainText("weekly on day 5 at 16:45");
    await expect(entry).toContainText("added lead@example.com");
  });
}

test("changing a digest over HTTP: refused from another site, not found to a key that does not reach the store", async ({
  signedInPage: page,
}) => {
  const id = await grantAndDigest(page, `HTTP ${Date.now()}`, "range=last7");
  const change = { cadence: "daily", localTime: "06:00", recipients: ["team@example.com"] };
  const crossSite = await page.request.patch(`/api/stores/${US_STORE}/digests/${id}`, {
    data: change,
    headers: { origin: "https://evil.example" },
  });
  expect(crossSite.status()).toBe(403);
  expect(((await crossSite.json()) as { code: string }).code).toBe("cross_site");

  // Kumo's key reaches only its own store: the US store's digest is not there for it.
  const other = await page
    .context()
    .browser()!
    .newContext({ baseURL: origin(page) });
  const outsider = await other.newPage();
  await signInWithKey(outsider, KEYS.kumoJp);
  await expect(outsider).not.toHaveURL(/sign-in/);
  const refused = await outsider.request.patch(`/api/stores/${US_STORE}/digests/${id}`, {
    data: change,
    headers: { origin: origin(page) },
  });
  expect([403, 404]).toContain(refused.status());
  const ownStore = await outsider.request.patch(`/api/stores/${KUMO_STORE}/digests/${id}`, {
    data: change,
    headers: { origin: origin(page) },
  });
  expect(ownStore.status()).toBe(404);
  await other.close();

  // Nothing changed, and the owner's change is what Activity records.
  const listed = (await (await page.request.get(`/api/stores/${US_STORE}/digests`)).json()) as {
    digests: { id: string; localTime: string }[];
  };
  expect(listed.digests.find((digest) => digest.id === id)?.localTime).toBe("07:00");
  const own = await page.request.patch(`/api/stores/${US_STORE}/digests/${id}`, { data: change, headers: { origin: origin(page) } });
  expect(own.status()).toBe(200);
  const activity = (await (await page.request.get("/api/activity")).json()) as {
    entries: { action: string; target: { digestId?: string } }[];
  };
  expect(activity.entries.filter((entry) => entry.target.digestId === id).map((entry) => entry.action)).toContain("digest.change");
});

for (const width of [1440, 390]) {
  test(`an alert rule's page (${width} px): its name, its state and the history of its episodes`, async ({ signedInPage: page }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width, height: 900 });
    const headers = { origin: origin(page) };
    const name = `Always above zero ${Date.now()}`;
    const created = await page.request.post(`/api/stores/${US_STORE}/alerts`, {
      data: storeRule(name, "above", 0),
      headers,
    });
    expect(created.status(), await created.text()).toBe(201);
    const { id } = (await created.json()) as { id: string };
    await page.goto(`/stores/${US_STORE}/alerts/${id}`);
    await expect(page.getByRole("heading", { level: 2, name: new RegExp(`^${name}`) })).toContainText("OK");
    await expect(page.getByText("No episode yet")).toBeVisible();

    expect((await page.request.post(`/api/stores/${US_STORE}/alerts/check`, { headers })).status()).toBe(200);
    await page.reload();
    await expect(page.getByRole("heading", { level: 2, name: new RegExp(`^${name}`) })).toContainText("Firing");
    const episodes = page.getByRole("table", { name: `Episodes of ${name}, newest first` });
    const episode = episodes.locator("tbody tr").first();
    await expect(episode).toContainText("Still firing");
    await expect(episode).toContainText(/[A-Z][a-z]{2} \d{1,2}, \d{4}/);
    await expect(episode).toContainText("$");
    await checkPage(page, "alert-rule-page", episodes);
  });
}
