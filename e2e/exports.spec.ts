import { createHash } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { expect, test } from "./support/fixtures";
import { exportWithManifest } from "./support/exports";
import { PRODUCTS_PAGE } from "./support/pages";
import { US_STORE } from "./support/demo";
import { parseCsv } from "@/shared/export-verify";

/** Issue 16, finding 6 and "exports you can verify". */

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

test("the table export is what the table shows: its search and sort, rounded figures, the header first, with a manifest", async ({
  signedInPage: page,
}) => {
  await page.goto(PRODUCTS_PAGE);
  await expect(page.getByTestId("product-row").first()).toBeVisible();
  await page.getByLabel("Search products by name, SKU or ID").fill("jacket");
  const sortByName = page.getByRole("table").getByRole("button", { name: "Product", exact: true });
  await sortByName.click();
  await sortByName.click();
  await expect(page).toHaveURL(/direction=asc/);
  const count = Number((await page.getByText(/\d+ products · page/).textContent())!.split(" ")[0]!.replace(/,/g, ""));
  expect(count).toBeGreaterThan(0);
  const shownNames = (await page.getByTestId("product-row").locator("td:first-child span.block.font-medium").allTextContents()).map(
    (name) => name.trim(),
  );

  const exported = await exportWithManifest(page, "Export table (CSV)");
  const [header, ...rows] = parseCsv(exported.csv.trimEnd());
  expect(header).toEqual([
    "Product",
    "SKU",
    "Product ID",
    "Orders",
    "Units",
    "Revenue (USD)",
    "Avg. price (USD)",
    "Revenue / order (USD)",
    "Share (%)",
  ]);
  expect(rows).toHaveLength(count);
  expect(rows.map((row) => row[0]).slice(0, shownNames.length)).toEqual(shownNames);
  for (const row of rows) for (const cell of row.slice(5, 8)) expect(cell).toMatch(/^-?\d+(\.\d{1,2})?$|^$/);

  expect(exported.manifest).toMatchObject({
    kind: "products",
    store_url: US_STORE,
    endpoint: `/api/stores/${US_STORE}/product-metrics/export`,
    dimension_source: "conversion",
    row_count: count,
    sha256: sha256(exported.csv),
    annotations: [],
    range: {
      start_date: "2026-01-01",
      end_date: "2026-01-31",
      utc_start: "2026-01-01T05:00:00.000Z",
      utc_end_exclusive: "2026-02-01T05:00:00.000Z",
    },
  });
  expect(exported.manifest.parameters).toMatchObject({ q: "jacket", sort: "name", direction: "asc" });
  expect(exported.manifest.dashboard_version).toMatch(/^\d+\.\d+\.\d+/);
});

test("Verify says a file and its manifest still match, and which days changed when the figures differ", async ({ signedInPage: page }) => {
  test.setTimeout(90_000);
  await page.goto(PRODUCTS_PAGE);
  await expect(page.getByTestId("product-row").first()).toBeVisible();
  const exported = await exportWithManifest(page, "Export raw rows (CSV)");
  expect(exported.csv.startsWith("shop,date,time,channel,")).toBe(true);
  expect(exported.manifest.row_count).toBe(parseCsv(exported.csv.trimEnd()).length - 1);

  await page.getByRole("link", { name: "Verify an export" }).click();
  await expect(page.getByRole("heading", { name: "Verify an export" })).toBeVisible();
  await page.getByLabel("Exported file (.csv)").setInputFiles(exported.csvPath);
  await page.getByLabel("Its manifest (.manifest.json)").setInputFiles(exported.manifestPath);
  await page.getByRole("button", { name: "Verify" }).click();
  const verdict = page.getByTestId("verdict");
  await expect(verdict).toContainText("The file is exactly the one exported");
  await expect(verdict).toContainText("The figures still match");

  // As if the service's figures for one day had changed since: a file and manifest that agree with each other, not with today.
  const lines = exported.csv.split("\r\n");
  const cells = lines[1]!.split(",");
  const day = cells[1]!;
  cells[cells.length - 1] = String(Number(cells.at(-1)) + 100);
  lines[1] = cells.join(",");
  const altered = lines.join("\r\n");
  await writeFile(exported.csvPath, altered);
  await writeFile(exported.manifestPath, JSON.stringify({ ...exported.manifest, sha256: sha256(altered) }));
  await page.getByLabel("Exported file (.csv)").setInputFiles(exported.csvPath);
  await page.getByLabel("Its manifest (.manifest.json)").setInputFiles(exported.manifestPath);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(verdict).toContainText("The file is exactly the one exported");
  await expect(verdict).toContainText("The figures changed for 1 day.");
  await expect(page.getByTestId("changed")).toHaveCount(1);
  await expect(page.getByTestId("changed").getByRole("rowheader")).toHaveText(day);
});
