import { US_STORE } from "./support/demo";
import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";

/** A digest says what it shows: its view's filters, attribution, range in the store's zone and comparison. */
const WIDTHS = [1440, 390] as const;
const SHOWS = "Country: Canada (CA) · credit to the first touch";
const RANGE = "Custom range: Jan 1, 2026 – Jan 31, 2026 (America/New_York), compared with the same weekdays 52 weeks earlier";

/** Schedules the view's digest through the API; gives back how to revoke its grant, so later journeys start without one. */
async function scheduleFilteredDigest(page: Page, name: string): Promise<() => Promise<void>> {
  const origin = new URL(page.url()).origin;
  const api = (path: string, data: unknown) =>
    page.request.post(`/api/stores/${US_STORE}/${path}`, { data, headers: { origin } }).then(async (response) => {
      expect(response.status(), await response.text()).toBeLessThan(300);
      return (await response.json()) as { id: string };
    });
  const view = await api("saved-views", {
    name,
    search: "range=custom&from=2026-01-01&to=2026-01-31&compare=year&country=CA&source=first_touch",
  });
  const grant = await api("grants", { consent: true });
  await api("digests", { savedViewId: view.id, cadence: "daily", localTime: "07:00", recipients: ["canada@example.com"] });
  return async () => {
    const revoked = await page.request.delete(`/api/stores/${US_STORE}/grants/${grant.id}`, { headers: { origin } });
    expect(revoked.status()).toBeLessThan(300);
  };
}

for (const width of WIDTHS) {
  test(`at ${width} px a digest of a filtered view states its filters in Send now's confirmation and in the Outbox`, async ({
    signedInPage: page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    const name = `Canada first touch ${width} ${Date.now()}`;
    const revoke = await scheduleFilteredDigest(page, name);
    try {
      await page.goto(`/stores/${US_STORE}/digests`);
      const row = page.getByRole("list", { name: "Scheduled digests" }).getByRole("listitem").filter({ hasText: name });
      await row.getByRole("button", { name: `Send “${name}” now` }).click();
      const status = row.getByRole("status");
      await expect(status).toContainText(`It shows: ${SHOWS}.`);
      await expect(status).toContainText(RANGE);
      await expect(status).toBeInViewport();

      await status.getByRole("link", { name: "Outbox" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Outbox" })).toBeVisible();
      const message = page.locator("section", { has: page.getByRole("heading", { level: 2, name: new RegExp(`^${name}`) }) }).first();
      await expect(message).toBeVisible({ timeout: 20_000 });
      const frame = message.frameLocator("iframe");
      await expect(frame.getByText(`Shows: ${SHOWS}`)).toBeVisible();
      await expect(frame.locator("main")).toContainText(RANGE);
      await message.getByText("Plain-text part").click();
      await expect(message.locator("pre")).toContainText(`Shows: ${SHOWS}`);
      await expect(message.locator("pre")).toContainText(RANGE);
      // Nothing of the statement is cut at this width: the frame fits the page.
      const box = (await message.locator("iframe").boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(width);
    } finally {
      await revoke();
    }
  });
}
