import { E2E_ROLLUPS_BASE_URL, E2E_ROLLUPS_DEMO_UPSTREAM_PORT } from "../playwright.config";
import { violationsInBothSchemes } from "./support/axe";
import { demoUpstream, US_STORE } from "./support/demo";
import { expect, test } from "./support/fixtures";

// The dashboard with the day rollups on (playwright.config.ts), and its own demo upstream.
test.use({ baseURL: E2E_ROLLUPS_BASE_URL });
const demo = demoUpstream(E2E_ROLLUPS_DEMO_UPSTREAM_PORT);
test.beforeEach(() => demo.reset());

// A week no other journey views: its rollups may hold the restated figures for a few seconds after the journey.
const FROM = "2024-05-06";
const TO = "2024-05-12";
const RESTATED = "2024-05-08";
const products = (extra = "") => `/stores/${US_STORE}/products?range=custom&from=${FROM}&to=${TO}${extra}`;

test("a restated day is named on the product page and listed on the store's data changes", async ({ signedInPage: page }) => {
  // The sign-in's warm-up and this view's fills run first (the queue's, behind the answers): the week is then held.
  test.setTimeout(240_000);
  await page.goto(products());
  await expect(page.getByTestId("figures-as-of")).toContainText(/Figures as of [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s?[AP]M /);
  await expect
    .poll(async () => ((await (await page.request.get(`/api/stores/${US_STORE}/rollups`)).json()) as { filling: boolean }).filling, {
      timeout: 180_000,
      intervals: [1_000],
    })
    .toBe(false);

  await demo.restate(US_STORE, RESTATED, 1.5);
  // Once the stored days are older than ROLLUP_REVALIDATE_SECONDS (2 s here), the next view reads them again and finds
  // the change; the 2 s beyond it cover a first view whose days were stored behind its answer.
  await page.waitForTimeout(4_000);
  // Another view of the same days (the first compared with the previous period, the default), so no cached view answers it:
  // it reads the stale days upstream and queues their fill, which records the change behind it.
  await page.goto(products("&compare=off"));
  await expect(page.getByTestId("figures-as-of")).toBeVisible();
  await expect(async () => {
    await page.goto(`/stores/${US_STORE}/data-changes`);
    await expect(page.getByRole("article", { name: "May 8, 2024 restated" })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  // A view of the range then names it (the previous year compared, again not a cached view).
  await page.goto(products("&compare=year"));
  const restated = page.getByRole("link", { name: /May 8, 2024 was restated: revenue \+\$[\d,]+\.\d{2}, mostly \w+/ });
  await expect(restated).toBeVisible({ timeout: 20_000 });

  await restated.click();
  await expect(page).toHaveURL(new RegExp(`/stores/${US_STORE}/data-changes`));
  await expect(page.getByRole("heading", { name: "Data changes" })).toBeVisible();
  const card = page.getByRole("article", { name: "May 8, 2024 restated" });
  await expect(card.getByRole("heading", { name: /May 8, 2024: revenue \+\$[\d,]+\.\d{2}/ })).toBeVisible();
  await expect(card).toContainText(/Revenue\s*\$[\d,.]+ → \$[\d,.]+/);
  await expect(card).toContainText("Channels:");
  // The list is one of the store's sections, and with a change on it passes axe in both schemes.
  await expect(page.getByRole("navigation", { name: "Store sections" }).getByRole("link", { name: "Data changes" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await violationsInBothSchemes(page, "data changes with a restated day");
});
