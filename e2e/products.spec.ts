import { exportWithManifest } from "./support/exports";
import { demo, KEYS, US_STORE } from "./support/demo";
import { expect, signInWithKey, test } from "./support/fixtures";

const PAGE = `/stores/${US_STORE}/products?range=custom&from=2026-01-01&to=2026-01-31`;

/** "$1,234.50" → 1234.5 */
const amount = (text: string) => Number(text.replace(/\u2212/g, "-").replace(/[^0-9.-]/g, ""));

test("filters live in the URL: chosen, shown as chips, and kept on reload", async ({ signedInPage: page }) => {
  await page.goto(PAGE);
  await expect(page.getByTestId("time-chart").locator(".recharts-area-area").first()).toBeVisible();
  const allOrders = await page.getByTestId("kpi-Orders").textContent();

  await page.getByLabel("Channel", { exact: true }).selectOption("google");
  await expect(page).toHaveURL(/channel=google/);
  await page.getByRole("button", { name: /^Device type/ }).click();
  await page.getByRole("group", { name: "Device type filter" }).getByLabel("mobile").click();
  await page.keyboard.press("Escape");
  await expect(page).toHaveURL(/device=mobile/);
  await page.getByText("Credit to the first touch").click();
  await expect(page).toHaveURL(/source=first_touch/);

  const chips = page.getByRole("group", { name: "Active filters" });
  await expect(chips.getByRole("button", { name: "Remove filter Channel: google" })).toBeVisible();
  await expect(chips.getByRole("button", { name: "Remove filter Device type: mobile" })).toBeVisible();
  await expect(page.getByTestId("kpi-Orders")).not.toHaveText(allOrders!);
  const filteredOrders = await page.getByTestId("kpi-Orders").textContent();

  await page.reload();
  await expect(page.getByLabel("Channel", { exact: true })).toHaveValue("google");
  await expect(page.getByRole("radio", { name: "Credit to the first touch" })).toBeChecked();
  await expect(page.getByTestId("kpi-Orders")).toHaveText(filteredOrders!);

  await page.goBack();
  await expect(page).not.toHaveURL(/source=first_touch/);
  await page.goto(PAGE + "&channel=google&device=mobile");
  await chips.getByRole("button", { name: "Clear all" }).click();
  await expect(page).not.toHaveURL(/channel=|device=/);
});

test("a comparison period shows the change on every figure", async ({ signedInPage: page }) => {
  await page.goto(PAGE);
  // The previous period is the comparison by default, without asking.
  await expect(page.getByLabel("Compare with")).toHaveValue("previous");
  // A compact signed change on each tile; the sentence is kept for screen readers and the tooltip.
  for (const label of ["Revenue", "Orders", "Units", "Average order value", "Units per order"])
    await expect(page.getByTestId(`kpi-change-${label}`)).toContainText(/^([↑↓][\d.]+%|0\.0%|new)/);
  await expect(page.getByText(/(more|less) than the previous period\.|About the same as the previous period\./)).toHaveCount(5);
});

test("the exported CSV holds the same products and figures as the table", async ({ signedInPage: page }) => {
  await page.goto(`${PAGE}&channel=facebook`);
  const firstRow = page.getByTestId("product-row").first();
  await expect(firstRow).toBeVisible();
  const firstName = (await firstRow.locator("td").first().locator("span.block").first().textContent())!;
  const firstRevenue = amount((await firstRow.locator("td").nth(1).textContent())!);
  const count = Number((await page.getByText(/\d+ products · page/).textContent())!.split(" ")[0]!.replace(/,/g, ""));

  const exported = await exportWithManifest(page, "Export table (CSV)");
  expect(exported.name).toBe(`products_${US_STORE}_2026-01-01_2026-01-31_conversion_filtered.csv`);
  expect(exported.manifestName).toBe(`products_${US_STORE}_2026-01-01_2026-01-31_conversion_filtered.manifest.json`);
  expect(exported.manifest.parameters.channel).toBe("facebook");
  expect(exported.manifest.time_zone.used).toBe("America/New_York");
  const lines = exported.csv.trim().split("\r\n");
  expect(lines[0]).toMatch(/^Product,SKU,Product ID,/);
  expect(lines).toHaveLength(count + 1);
  const [name, , , , , revenue] = lines[1]!.split(",");
  expect(name).toBe(firstName);
  expect(Number(revenue)).toBeCloseTo(firstRevenue, 2);
});

test("a product's breakdown shows ad names and statuses from enrich, and unknown IDs as they are", async ({ signedInPage: page }) => {
  await page.goto(PAGE);
  await page.getByTestId("product-row").first().getByRole("button").first().click();
  const breakdown = page.getByRole("table", { name: "Breakdown of this product by channel and ad" });
  await expect(breakdown).toBeVisible();
  // A resolved ad shows its name next to a status badge and its ID.
  await expect(breakdown.locator("td span.rounded-full").first()).toHaveText(/^(Active|Paused|Archived)$/);
  await expect(breakdown.getByText("no ad").first()).toBeVisible();
});

test("an upstream 500 shows the error panel with its request id", async ({ signedInPage: page }) => {
  await demo.setFaults([{ route: "products", errorStatus: 500, errorRate: 1 }]);
  await page.goto(`${PAGE}&channel=tiktok`);
  const panel = page.getByRole("alert").filter({ hasText: "The analytics service had a problem" });
  await expect(panel).toBeVisible();
  await expect(panel.getByTestId("request-id")).toHaveText(/\S+/);
});

test("a link with settings that make no sense says what it reset", async ({ signedInPage: page }) => {
  await page.goto(`/stores/${US_STORE}/products?range=forever&page=abc`);
  await expect(page.getByText(/could not be used and were reset/)).toContainText('date range "forever"');
  await expect(page.getByTestId("kpi-Revenue")).toBeVisible();
});

test("a zero-decimal currency shows whole yen, with the store's own time zone", async ({ page }) => {
  await signInWithKey(page, KEYS.kumoJp, "/stores/kumo-living.jp/products?range=custom&from=2026-01-01&to=2026-01-31");
  await expect(page.getByText("Asia/Tokyo · JPY")).toBeVisible();
  await expect(page.getByTestId("kpi-Revenue")).toHaveText(/^[¥￥][\d,]+$/);
  await expect(page.getByTestId("kpi-Average order value")).toHaveText(/^[¥￥][\d,]+$/);
});

test("both attributions side by side: the store's totals once (they agree), and each channel under both", async ({
  signedInPage: page,
}) => {
  await page.goto(PAGE);
  await page.getByText("Both side by side").click();
  await expect(page).toHaveURL(/source=both/);
  // Every order is credited once under either attribution: two identical rows of figures would say nothing.
  await expect(page.getByRole("region", { name: /^The same under both attributions/ })).toBeVisible();
  await expect(page.getByRole("region", { name: "Credit to the first touch" })).toHaveCount(0);
  const table = page.getByRole("table", { name: /credited to the conversion and to the first touch/ });
  const facebook = table.getByRole("row", { name: /^facebook/ });
  await expect(facebook).toBeVisible();
  // The channel's revenue under each attribution, side by side: they differ somewhere in the table.
  const revenues = await table
    .locator("tbody tr")
    .evaluateAll((rows) => rows.map((row) => [row.children[3]?.textContent, row.children[4]?.textContent]));
  expect(revenues.some(([conversion, firstTouch]) => conversion !== firstTouch)).toBe(true);
});

test("the organization chosen for the store stays in the URL while the view changes", async ({ signedInPage: page }) => {
  await page.goto(`${PAGE}&organizationId=org_northwind`);
  await expect(page.getByTestId("kpi-Revenue")).toBeVisible();
  await page.getByLabel("Channel", { exact: true }).selectOption("email");
  await expect(page).toHaveURL(/channel=email/);
  await expect(page).toHaveURL(/organizationId=org_northwind/);
  await expect(page.getByTestId("kpi-Revenue")).toBeVisible();
});
