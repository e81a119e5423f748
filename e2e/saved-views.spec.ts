import { KEYS, US_STORE } from "./support/demo";
import { expect, nextClientAddress, signInWithKey, test } from "./support/fixtures";

const PAGE = `/stores/${US_STORE}/products`;

test("a marketer saves the view on screen, opens it by its shareable link, renames it, deletes it and undoes that", async ({
  signedInPage: page,
  browser,
}) => {
  const view = "range=custom&from=2026-01-01&to=2026-01-31&compare=year&channel=google&sort=units";
  await page.goto(`${PAGE}?${view}`);
  await page.getByRole("button", { name: /^Saved views/ }).click();
  const menu = page.getByRole("region", { name: "Saved views" });
  await menu.getByLabel("Save this view as").fill("January on Google");
  await menu.getByRole("button", { name: "Save view" }).click();
  await expect(menu.getByRole("status")).toContainText("Saved “January on Google”.");
  const saved = menu.getByRole("link", { name: "January on Google" });
  await expect(saved).toBeVisible();
  await expect(menu.getByRole("listitem").filter({ hasText: "January on Google" })).toContainText("@");

  // The same name twice is refused, with the reason.
  await menu.getByLabel("Save this view as").fill("january on google");
  await menu.getByRole("button", { name: "Save view" }).click();
  await expect(menu.getByText(/already exists/)).toBeVisible();

  // Its link is the view: opened in another browser of the same organization, it shows the same settings.
  const href = await saved.getAttribute("href");
  expect(href).toContain("channel=google");
  expect(href).toContain("compare=year");
  await page.goto(PAGE);
  await page.getByRole("button", { name: /^Saved views/ }).click();
  await page.getByRole("region", { name: "Saved views" }).getByRole("link", { name: "January on Google" }).click();
  await expect(page).toHaveURL(/channel=google/);
  await expect(page).toHaveURL(/from=2026-01-01/);

  // Rename.
  await page.getByRole("button", { name: /^Saved views/ }).click();
  const reopened = page.getByRole("region", { name: "Saved views" });
  await reopened.getByRole("button", { name: "Rename January on Google" }).click();
  await reopened.getByLabel("New name for January on Google").fill("Google, January");
  await reopened.getByRole("button", { name: "Rename", exact: true }).click();
  await expect(reopened.getByRole("link", { name: "Google, January" })).toBeVisible();

  // Delete, then undo within ten seconds.
  await reopened.getByRole("button", { name: "Delete Google, January" }).click();
  await expect(reopened.getByRole("link", { name: "Google, January" })).toHaveCount(0);
  await page.getByRole("button", { name: "Undo" }).click();
  await expect(reopened.getByRole("link", { name: "Google, January" })).toBeVisible();

  // Kept in the database for the organization: a manager's own session sees it, with who saved it.
  const other = await browser.newContext({ extraHTTPHeaders: { "x-forwarded-for": nextClientAddress() } });
  const otherPage = await other.newPage();
  await signInWithKey(otherPage, KEYS.manager);
  await expect(otherPage).toHaveURL(/\/context$/);
  const list = await otherPage.request.get(`/api/stores/${US_STORE}/saved-views`);
  // Other journeys (digests) save views of their own in the organization: this one is among them.
  expect((await list.json()).views).toContainEqual(
    expect.objectContaining({ name: "Google, January", createdByEmail: expect.stringContaining("@") }),
  );
  await other.close();
});
