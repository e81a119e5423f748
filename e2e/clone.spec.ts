import {
  account,
  CLONE,
  clones,
  fillCloneForm,
  hideEarlierRefusals,
  MANAGER_KEY,
  openRemoveDialog,
  openTracking,
  review,
  source,
  uniqueName,
  usPixels,
} from "./support/actions";
import { demo, KEYS, US_STORE } from "./support/demo";
import { expect, signInWithKey, test } from "./support/fixtures";

test.describe("campaign clone", () => {
  test("the PAUSED path: review shows exactly what is sent, then the result", async ({ page }) => {
    await signInWithKey(page, MANAGER_KEY, CLONE);
    await fillCloneForm(page, { budget: "75.50" });
    await review(page);
    const body = page.getByLabel("Request body");
    await expect(body).toContainText('"status": "PAUSED"');
    await expect(body).toContainText('"budget": 75.5');
    await expect(body).toContainText('"currencyCode": "USD"');
    expect(await clones()).toHaveLength(0);

    await page.getByRole("button", { name: "Clone campaign group" }).click();
    const notice = page.getByRole("status").filter({ hasText: "Cloned as" });
    await expect(notice.getByTestId("request-id")).toHaveText(/\S+/);
    await expect(page.getByRole("heading", { name: "Cloned campaign group" })).toBeVisible();
    await expect(page.getByText("$75.50")).toBeVisible();
    const steps = page.getByRole("list", { name: "Results of each step" });
    await expect(steps).toContainText("Copied the campaign group");
    await expect(steps).not.toContainText("copy-campaign-group");
    await expect(steps.getByText("Done").first()).toBeVisible();
    expect(await clones()).toEqual([expect.objectContaining({ name: `Copy of ${source.name}`, status: "PAUSED" })]);
  });

  test("ACTIVE needs the new name typed as confirmation", async ({ page }) => {
    await signInWithKey(page, MANAGER_KEY, CLONE);
    await fillCloneForm(page, { name: "Holiday relaunch" });
    await page.getByLabel("Start delivering immediately (ACTIVE)").check();
    await page.getByRole("button", { name: "Review the clone" }).click();
    const confirmation = page.getByLabel("Type the new name to confirm");
    await expect(confirmation).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByText("type the new name exactly")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Review before cloning" })).toHaveCount(0);

    await confirmation.fill("Holiday relaunch");
    await review(page);
    await expect(page.getByLabel("Request body")).toContainText('"status": "ACTIVE"');
    await page.getByRole("button", { name: "Clone and start delivering" }).click();
    await expect(page.getByRole("heading", { name: "Cloned campaign group" })).toBeVisible();
    expect(await clones()).toEqual([expect.objectContaining({ name: "Holiday relaunch", status: "ACTIVE" })]);
  });

  test("invalid fields block submission with messages next to them", async ({ page }) => {
    await signInWithKey(page, MANAGER_KEY, CLONE);
    await page.getByLabel("Start", { exact: true }).fill("2026-06-10T09:00");
    await page.getByLabel("End (optional)").fill("2026-06-09T09:00");
    await page.getByLabel(/^Daily budget/).fill("0");
    await page.getByRole("button", { name: "Review the clone" }).click();

    for (const [label, message] of [
      ["Ad account ID", "must not be empty"],
      ["Source campaign group ID", "must not be empty"],
      ["End (optional)", "must be after the start"],
      [/^Daily budget/, "must be a number greater than 0"],
    ] as const) {
      const field = page.getByLabel(label);
      await expect(field).toHaveAttribute("aria-invalid", "true");
      const errorId = (await field.getAttribute("aria-describedby"))!.split(" ").find((id) => id.endsWith("-error"))!;
      await expect(page.locator(`[id="${errorId}"]`)).toHaveText(message);
    }
    await expect(page.getByLabel("Ad account ID")).toBeFocused();
    await expect(page.getByRole("heading", { name: "Review before cloning" })).toHaveCount(0);
    expect(await clones()).toHaveLength(0);
  });

  test("the upstream's 400 details come back next to their field", async ({ page }) => {
    await signInWithKey(page, MANAGER_KEY, CLONE);
    await fillCloneForm(page, { name: uniqueName("Refused currency") });
    await page.getByLabel("Currency").fill("EUR");
    await review(page);
    await page.getByRole("button", { name: "Clone campaign group" }).click();
    await expect(page.getByLabel("Currency")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByText("must be USD").first()).toBeVisible();
    await expect(page.getByRole("alert").getByTestId("request-id")).toHaveText(/\S+/);
    expect(await clones()).toHaveLength(0);
  });

  test("the marketer key's first refusal is remembered: from then on no clone form is offered", async ({ page }) => {
    const refusals = await hideEarlierRefusals(page);
    await signInWithKey(page, KEYS.marketer, CLONE);
    await fillCloneForm(page, { name: uniqueName("Marketer clone") });
    await review(page);
    refusals.reveal();
    await page.getByRole("button", { name: "Clone campaign group" }).click();
    const alert = page.getByRole("alert").filter({ hasText: "This key is not allowed to clone campaigns" });
    await expect(alert.getByTestId("request-id")).toHaveText(/\S+/);
    expect(await clones()).toHaveLength(0);
    const note = page.getByRole("note", { name: "Cloning campaign groups: unavailable" });
    await expect(note).toContainText("this key was refused cloning campaign groups on");

    await page.goto(CLONE);
    await expect(note).toBeVisible();
    await expect(page.getByLabel("Ad account ID")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Review the clone" })).toHaveCount(0);
  });

  test("a lost answer: the clone may or may not exist; cloning again needs the name typed and a new key", async ({ page }) => {
    const sent: { key: string; body: string }[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/clone-linkedin-campaign"))
        sent.push({ key: request.headers()["idempotency-key"] ?? "", body: request.postData() ?? "" });
    });
    await signInWithKey(page, MANAGER_KEY, CLONE);
    const name = uniqueName("Lost answer");
    await fillCloneForm(page, { name });
    await review(page);
    await demo.setFaults([{ route: "clone", truncateRate: 1, times: 1 }]);
    await page.getByRole("button", { name: "Clone campaign group" }).click();

    const alert = page.getByRole("alert").filter({ hasText: "may or may not exist" });
    await expect(alert).toContainText(account!.id);
    await expect(alert).toContainText("LinkedIn Campaign Manager");
    await expect(alert).toContainText(name);
    await expect(alert).toContainText(source.name);
    await expect(alert.getByRole("link", { name: "See it in Activity" })).toHaveAttribute("href", /\/activity\?entry=act_/);
    await expect(alert.getByRole("button", { name: "Try again" })).toHaveCount(0);

    // The same key again is refused as unknown: nothing is sent upstream twice.
    const origin = new URL(page.url()).origin;
    const before = (await demo.state()).requestCounts.clone;
    const retry = await page.request.post(`/api/v1/platform/${US_STORE}/actions/clone-linkedin-campaign`, {
      headers: { origin, "idempotency-key": sent[0]!.key, "content-type": "application/json" },
      data: sent[0]!.body,
    });
    expect(retry.status()).toBe(409);
    expect(((await retry.json()) as { code: string }).code).toBe("outcome_unknown");
    expect((await demo.state()).requestCounts.clone).toBe(before);

    await alert.getByRole("button", { name: "Clone again anyway" }).click();
    const dialog = page.getByRole("dialog", { name: "Clone again anyway" });
    await expect(dialog).toContainText("second campaign group");
    const confirm = dialog.getByRole("button", { name: "Clone again anyway" });
    await expect(confirm).toBeDisabled();
    await dialog.getByLabel(/to confirm/).fill(name.slice(0, -1));
    await expect(confirm).toBeDisabled();
    await dialog.getByLabel(/to confirm/).fill(name);
    await confirm.click();
    await expect(page.getByRole("heading", { name: "Cloned campaign group" })).toBeVisible();
    expect(sent).toHaveLength(2);
    expect(sent[1]!.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent[1]!.key).not.toBe(sent[0]!.key);
    expect(sent[1]!.body).toBe(sent[0]!.body);
  });

  test("a double click on clone clones once", async ({ page }) => {
    const sent: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/clone-linkedin-campaign")) sent.push(request.url());
    });
    await signInWithKey(page, MANAGER_KEY, CLONE);
    await fillCloneForm(page, { name: uniqueName("Double click") });
    await review(page);
    await page.getByRole("button", { name: "Clone campaign group" }).dblclick();
    await expect(page.getByRole("heading", { name: "Cloned campaign group" })).toBeVisible();
    expect(await clones()).toHaveLength(1);
    expect(sent).toHaveLength(1);
  });

  test("an upstream 500 is a definitive failure: Try again is a new attempt with a new key, and clones once", async ({ page }) => {
    const sent: { key: string; body: string }[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/clone-linkedin-campaign"))
        sent.push({ key: request.headers()["idempotency-key"] ?? "", body: request.postData() ?? "" });
    });
    await signInWithKey(page, MANAGER_KEY, CLONE);
    await fillCloneForm(page, { name: uniqueName("After a 500") });
    await review(page);
    await demo.setFaults([{ route: "clone", errorStatus: 500, errorRate: 1, times: 1 }]);
    await page.getByRole("button", { name: "Clone campaign group" }).click();
    const panel = page.getByRole("alert").filter({ hasText: "The analytics service had a problem" });
    await expect(panel.getByTestId("request-id")).toHaveText(/\S+/);
    expect(await clones()).toHaveLength(0);

    await panel.getByRole("button", { name: "Try again" }).click();
    await expect(page.getByRole("heading", { name: "Cloned campaign group" })).toBeVisible();
    expect(sent).toHaveLength(2);
    expect(sent[1]!.body).toEqual(sent[0]!.body);
    expect(sent[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent[1]!.key).not.toEqual(sent[0]!.key);

    // Sent once more with the successful attempt's key, the request is answered from the record: still one clone.
    const origin = new URL(page.url()).origin;
    const replay = await page.request.post(`/api/v1/platform/${US_STORE}/actions/clone-linkedin-campaign`, {
      headers: { origin, "idempotency-key": sent[1]!.key, "content-type": "application/json" },
      data: sent[1]!.body,
    });
    expect(replay.status()).toBe(200);
    expect(replay.headers()["idempotent-replayed"]).toBe("true");
    expect(await clones()).toHaveLength(1);
  });
});

test("the Activity page shows both actions", async ({ page }) => {
  const [target] = await usPixels();
  await openTracking(page, KEYS.admin);
  const dialog = await openRemoveDialog(page, target!.name);
  await dialog.getByLabel(/to confirm/).fill(target!.name);
  await dialog.getByRole("button", { name: "Remove tracking connection" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Removed" })).toBeVisible();

  await page.goto(CLONE);
  await fillCloneForm(page, { name: uniqueName("Activity check") });
  await review(page);
  await page.getByRole("button", { name: "Clone campaign group" }).click();
  await expect(page.getByRole("heading", { name: "Cloned campaign group" })).toBeVisible();
  const clonedId = ((await demo.state()).clones[0] as { campaignGroupId: string }).campaignGroupId;

  await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "More" }).click();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Activity" }).click();
  await expect(page.getByRole("heading", { name: "Activity" })).toBeVisible();
  // Earlier tests act on the same seeded IDs: the newest row of each is this test's.
  const removal = page.getByRole("row").filter({ hasText: target!.id }).first();
  await expect(removal.getByRole("rowheader")).toHaveText("Removed a tracking connection");
  await expect(removal).toContainText("Succeeded");
  const cloneRow = page.getByRole("row").filter({ hasText: clonedId }).first();
  await expect(cloneRow.getByRole("rowheader")).toHaveText("Cloned a campaign group");
  await expect(cloneRow).toContainText(source.id);
  // Newest first: the clone was made after the removal.
  const texts = await page.getByRole("row").allTextContents();
  expect(texts.findIndex((text) => text.includes(clonedId))).toBeLessThan(texts.findIndex((text) => text.includes(target!.id)));
});
