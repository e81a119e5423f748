import { account, CLONE, fillCloneForm, MANAGER_KEY, review, source, uniqueName } from "./support/actions";
import { expect, signInWithKey, test } from "./support/fixtures";

for (const width of [1440, 390] as const) {
  test(`the clone form offers what this store cloned from before, named and with its status (${width} px)`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await signInWithKey(page, MANAGER_KEY, CLONE);
    // One clone, so Activity holds this store's ad account and campaign group.
    const name = uniqueName("Suggested");
    await fillCloneForm(page, { name });
    await review(page);
    await page.getByRole("button", { name: "Clone campaign group" }).click();
    await expect(page.getByRole("heading", { name: "Cloned campaign group" })).toBeVisible();

    await page.getByRole("button", { name: "Clone another campaign group" }).click();
    await page.reload();
    const accountField = page.getByLabel("Ad account ID");
    const groupField = page.getByLabel("Source campaign group ID");
    // Each field is a combobox over a list of suggestions; typing any ID stays possible.
    await expect(accountField).toHaveAttribute("list", /.+/);
    await expect(groupField).toHaveAttribute("list", /.+/);
    const accounts = page.locator(`datalist#${await accountField.getAttribute("list")} option`);
    const groups = page.locator(`datalist#${await groupField.getAttribute("list")} option`);
    await expect(accounts.first()).toHaveAttribute("value", account!.id);
    const sourceOption = groups.and(page.locator(`[value="${source.id}"]`));
    await expect(sourceOption).toHaveAttribute(
      "label",
      new RegExp(`^${source.name} · ${source.status.toLowerCase()} · account ${account!.id}$`),
    );
    // The clone just made is offered too, by its new name.
    await expect(groups.and(page.locator(`[label^="${name} · "]`))).toHaveCount(1);
    await expect(page.getByText(/suggestions? from this store's earlier clones/)).toBeVisible();
    // And the campaigns and ads of the store's LinkedIn metrics rows, named and with their status by enrich.
    await expect(page.getByText(/suggestions? from its LinkedIn metrics of the last 90 days/)).toBeVisible();
    const fromMetrics = groups.and(page.locator('[label$=" · ad in LinkedIn metrics"]'));
    await expect(fromMetrics.first()).toHaveAttribute("label", /^.+ — .+ · (active|paused|archived) · ad in LinkedIn metrics$/);

    await groupField.fill("123");
    await expect(groupField).toHaveValue("123");
  });
}
