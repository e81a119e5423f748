import { E2E_ROLLUPS_BASE_URL } from "../playwright.config";
import { US_STORE } from "./support/demo";
import { expect, test } from "./support/fixtures";

// The dashboard with the day rollups on (playwright.config.ts): signing in queues the warm-up of the last 13 months.
test.use({ baseURL: E2E_ROLLUPS_BASE_URL });

test("the store overview says how much of the store is kept: the warm-up's progress, then the months held", async ({
  signedInPage: page,
}) => {
  await page.goto(`/stores/${US_STORE}`);
  const line = page.getByTestId("rollup-line");
  await expect(line).toHaveText(
    /^(Preparing the last 13 months: \d{1,3} %|Figures kept for [A-Z][a-z]{2} \d{4} – [A-Z][a-z]{2} \d{4}, as of [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s?[AP]M [A-Z0-9:+−-]+)$/,
    {
      timeout: 20_000,
    },
  );
  // The line is looked at again while the warm-up runs, and names the months once it is done.
  await expect(line).toHaveText(
    /^Figures kept for [A-Z][a-z]{2} \d{4} – [A-Z][a-z]{2} \d{4}, as of [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s?[AP]M [A-Z0-9:+−-]+$/,
    {
      timeout: 120_000,
    },
  );
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: test.info().outputPath(`rollup-line-${scheme}.png`) });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: test.info().outputPath(`rollup-line-${scheme}-390.png`) });
    await page.setViewportSize({ width: 1440, height: 900 });
  }
});
