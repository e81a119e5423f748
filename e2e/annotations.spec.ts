import { demo, KEYS, US_STORE } from "./support/demo";
import { expect, nextClientAddress, signInWithKey, test } from "./support/fixtures";
import { sidewaysOverflow } from "./support/pages";

const WEEK = `/stores/${US_STORE}/products?range=last7`;

test("the store's removal is a marker on the chart on its store-local date, linked to its Activity entry", async ({
  signedInPage: page,
}) => {
  const [target] = (await demo.state()).pixels[US_STORE]!;
  await page.goto(`/stores/${US_STORE}/tracking`);
  await page.getByRole("button", { name: `Remove ${target!.name}` }).click();
  const dialog = page.getByRole("dialog", { name: "Remove tracking connection" });
  await dialog.getByLabel(/to confirm/).fill(target!.name);
  await dialog.getByRole("button", { name: "Remove tracking connection" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Removed “${target!.name}”` })).toBeVisible();

  await page.goto(WEEK);
  const marker = page.getByTestId("time-chart").getByRole("link", { name: /^Removal on \d{4}-\d{2}-\d{2}: open its Activity entry$/ });
  await expect(marker.first()).toBeVisible();
  const listed = page
    .getByTestId("annotations")
    .getByRole("listitem")
    .filter({ hasText: `Removal of ${target!.name}` })
    // Earlier journeys may have removed a connection of the same name this week too.
    .first();
  await expect(listed).toContainText("by ");
  await listed.getByRole("link", { name: "Activity entry" }).click();
  await expect(page).toHaveURL(/\/activity\?entry=act_/);
  await expect(page.getByRole("heading", { name: "One entry" })).toBeVisible();
});

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`notes are shared in the organization and changed or deleted by their author only, at ${viewport.width} px`, async ({
    signedInPage: page,
    browser,
  }) => {
    await page.setViewportSize(viewport);
    const text = `Newsletter ${viewport.width} ${Date.now().toString(36)}`;
    await page.goto(WEEK);
    const panel = page.getByTestId("annotations");
    const form = panel.getByRole("form", { name: "Add a note" });
    await form.getByLabel("Note").fill(text);
    await form.getByRole("button", { name: "Add the note" }).click();
    const note = panel.getByTestId("note").filter({ hasText: text });
    await expect(note).toContainText(/by .+@.+, /);
    await expect(page.getByTestId("time-chart").getByTestId("chart-marker").filter({ hasText: "Note" }).first()).toBeVisible();
    expect(await sidewaysOverflow(page)).toBe(0);

    await note.getByRole("button", { name: `Change the note “${text}”` }).click();
    const edit = panel.getByRole("form", { name: "Change the note" });
    await edit.getByLabel("Note").fill(`${text} (sent twice)`);
    await edit.getByRole("button", { name: "Save the note" }).click();
    await expect(panel.getByTestId("note").filter({ hasText: `${text} (sent twice)` })).toBeVisible();

    // Another user of the organization sees the note, without the author's buttons.
    const other = await browser.newContext({ extraHTTPHeaders: { "x-forwarded-for": nextClientAddress() } });
    const otherPage = await other.newPage();
    await signInWithKey(otherPage, KEYS.manager);
    await expect(otherPage).toHaveURL(/\/context$/);
    await otherPage.goto(WEEK);
    const seen = otherPage
      .getByTestId("annotations")
      .getByTestId("note")
      .filter({ hasText: `${text} (sent twice)` });
    await expect(seen).toBeVisible();
    await expect(seen.getByRole("button")).toHaveCount(0);
    await other.close();

    await panel
      .getByTestId("note")
      .filter({ hasText: text })
      .getByRole("button", { name: /^Delete the note/ })
      .click();
    await expect(panel.getByTestId("note").filter({ hasText: text })).toHaveCount(0);
  });
}
