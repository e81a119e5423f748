import { describeDemo } from "@/demo-upstream/describe";
import { violationsInBothSchemes } from "./support/axe";
import { account, CLONE, clones, fillCloneForm, MANAGER_KEY, review, source, uniqueName } from "./support/actions";
import { US_STORE } from "./support/demo";
import { expect, signInWithKey, test } from "./support/fixtures";

const campaignGroupIds = () =>
  describeDemo()
    .adAccounts.filter((candidate) => candidate.storeUrl === US_STORE)
    .flatMap((candidate) => candidate.campaignGroups.map((group) => group.id));

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
    // The groups this store's successful clones made, as the page reads them from Activity: a
    // reset of the demo upstream by another journey forgets them there, never here.
    const cloneEntries: Promise<unknown>[] = [];
    page.on("response", (response) => {
      if (response.url().includes("/api/activity?") && response.ok()) cloneEntries.push(response.json());
    });
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
    // And the campaign groups enrich names for the store's LinkedIn ads: never an ad.
    await expect(page.getByText(/suggestions? that LinkedIn names for the store's ads of the last 90 days/)).toBeVisible();
    const fromData = groups.and(page.locator(`[label$=" · named by LinkedIn for the store's ads"]`));
    await expect(fromData.first()).toHaveAttribute(
      "label",
      /^[^—]+ · (active|paused|archived) · account \d+ · named by LinkedIn for the store's ads$/,
    );
    const offered = await groups.evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
    type Entries = { entries: { action: string; outcome: string; target: { newGroupId?: string } }[] };
    const madeHere = ((await Promise.all(cloneEntries)) as Entries[])
      .flatMap((answer) => answer.entries)
      .filter((entry) => entry.action === "campaign-group.clone" && entry.outcome === "succeeded")
      .map((entry) => entry.target.newGroupId);
    const groupIds = new Set([...campaignGroupIds(), ...(await clones()).map((clone) => clone.campaignGroupId), ...madeHere]);
    expect(offered.filter((id) => !groupIds.has(id))).toEqual([]);

    await groupField.fill("123");
    await expect(groupField).toHaveValue("123");
  });
}

for (const width of [1440, 390] as const) {
  test(`on first use the ad account is suggested from the store's data, and a source that failed is never suggested again (${width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    // First use: Activity holds no clone of this store.
    let firstUse = true;
    await page.route("**/api/activity?*", async (route) => {
      if (!firstUse) return route.continue();
      const response = await route.fetch();
      await route.fulfill({ response, json: { ...((await response.json()) as object), entries: [], nextCursor: null } });
    });
    await signInWithKey(page, MANAGER_KEY, CLONE);
    const accountField = page.getByLabel("Ad account ID");
    await expect(accountField).toHaveAttribute("list", /.+/);
    const accounts = page.locator(`datalist#${await accountField.getAttribute("list")} option`);
    await expect(accounts.and(page.locator(`[value="${account!.id}"]`))).toHaveCount(1);
    await page.screenshot({ path: `test-results/clone-first-use-${width}-light.png`, fullPage: true });
    await violationsInBothSchemes(page, `clone form, first use, ${width} px`);

    // A source that is no campaign group fails, and is not offered afterwards.
    firstUse = false;
    const wrong = `36${Date.now().toString().slice(-7)}`;
    await page.reload();
    await accountField.fill(account!.id);
    await page.getByLabel("Source campaign group ID").fill(wrong);
    await page.getByLabel("New name", { exact: true }).fill(uniqueName("Wrong source"));
    await page.getByLabel(/^Daily budget/).fill("50");
    await review(page);
    await page.getByRole("button", { name: "Clone campaign group" }).click();
    await expect(
      page
        .getByRole("alert")
        .filter({ hasText: `campaign group ${wrong} was not found` })
        .first(),
    ).toBeVisible();
    await page.getByRole("button", { name: "Back to edit" }).click();
    await page.reload();
    const groupField = page.getByLabel("Source campaign group ID");
    await expect(groupField).toHaveAttribute("list", /.+/);
    const groups = page.locator(`datalist#${await groupField.getAttribute("list")} option`);
    await expect(groups.first()).toBeAttached();
    await expect(groups.and(page.locator(`[value="${wrong}"]`))).toHaveCount(0);
  });
}
