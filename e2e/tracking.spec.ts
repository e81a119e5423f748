import { randomUUID } from "node:crypto";
import { usPixels, openTracking, openRemoveDialog, hideEarlierRefusals } from "./support/actions";
import { demo, KEYS, US_STORE } from "./support/demo";
import { expect, test } from "./support/fixtures";

test.describe("tracking connections", () => {
  test("an admin removes a connection after typing its name; the list updates from the answer", async ({ page }) => {
    const [target, ...rest] = await usPixels();
    await openTracking(page, KEYS.admin);
    await expect(page.getByRole("rowheader", { name: target!.name, exact: true })).toBeVisible();

    const dialog = await openRemoveDialog(page, target!.name);
    await expect(dialog).toContainText("stops sending its events");
    const input = dialog.getByLabel(/to confirm/);
    const confirm = dialog.getByRole("button", { name: "Remove tracking connection" });
    await expect(input).toBeFocused();
    await expect(confirm).toBeDisabled();
    await input.fill(target!.name.slice(0, -1));
    await expect(confirm).toBeDisabled();
    await input.fill(target!.name);

    let listReads = 0;
    page.on("request", (request) => {
      if (request.method() === "GET" && request.url().endsWith(`/api/v1/pixels/${US_STORE}`)) listReads += 1;
    });
    await confirm.click();
    await expect(dialog).toBeHidden();
    const notice = page.getByRole("status").filter({ hasText: `Removed “${target!.name}”` });
    await expect(notice.getByTestId("request-id")).toHaveText(/\S+/);
    await expect(page.getByRole("rowheader", { name: target!.name, exact: true })).toHaveCount(0);
    await expect(page.getByRole("rowheader")).toHaveCount(rest.length);
    expect(listReads).toBe(0);
    expect((await usPixels()).map((pixel) => pixel.id)).toEqual(rest.map((pixel) => pixel.id));
  });

  test("Escape closes the dialog and nothing is removed", async ({ page }) => {
    const [target] = await usPixels();
    await openTracking(page, KEYS.admin);
    const dialog = await openRemoveDialog(page, target!.name);
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    // The permission probe names no connection: the list is whole.
    expect((await usPixels()).map((pixel) => pixel.id)).toContain(target!.id);
  });

  test("the details panel shows the settings and the events", async ({ page }) => {
    const [target] = await usPixels();
    await openTracking(page, KEYS.admin);
    await page.getByRole("button", { name: `Details of ${target!.name}` }).click();
    const details = page.getByRole("region", { name: `Details of ${target!.name}` });
    await expect(details.getByRole("list", { name: "Included events" })).toContainText("Purchase");
    await expect(details.getByText("Base domain")).toBeVisible();
  });

  test("the marketer key's first refusal is remembered: from then on removal is unavailable before anything is typed", async ({ page }) => {
    const [target] = await usPixels();
    const refusals = await hideEarlierRefusals(page);
    await openTracking(page, KEYS.marketer);
    const dialog = await openRemoveDialog(page, target!.name);
    await dialog.getByLabel(/to confirm/).fill(target!.name);
    refusals.reveal();
    await dialog.getByRole("button", { name: "Remove tracking connection" }).click();
    const alert = page.getByRole("alert").filter({ hasText: "This key is not allowed to remove tracking connections" });
    await expect(alert).toBeVisible();
    await expect(alert.getByTestId("request-id")).toHaveText(/\S+/);
    expect((await usPixels()).map((pixel) => pixel.id)).toContain(target!.id);
    // At once, without a reload: the page now says so up front.
    const note = page.getByRole("note", { name: "Removing tracking connections: unavailable" });
    await expect(note).toContainText("this key was refused removing tracking connections on");
    await expect(page.getByRole("button", { name: `Remove ${target!.name}` })).toBeDisabled();

    // On the next visit, before anything is typed: no dialog, no request.
    const deletes: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "DELETE") deletes.push(request.url());
    });
    await page.reload();
    await expect(note).toContainText("The service does not list what a key may do");
    for (const button of await page.getByRole("button", { name: /^Remove / }).all()) await expect(button).toBeDisabled();
    await expect(page.getByRole("button", { name: `Remove ${target!.name}` })).toHaveAttribute("aria-describedby", "remove-refused");
    await expect(page.getByRole("dialog")).toHaveCount(0);
    expect(deletes).toEqual([]);
  });

  test("a connection removed meanwhile is reported as already removed, and the list refreshes", async ({ page }) => {
    const [target] = await usPixels();
    await openTracking(page, KEYS.admin);
    const origin = new URL(page.url()).origin;
    const elsewhere = await page.request.delete(`/api/v1/pixels/${US_STORE}/${target!.id}`, {
      headers: { origin, "idempotency-key": randomUUID() },
    });
    expect(elsewhere.status()).toBe(200);

    const dialog = await openRemoveDialog(page, target!.name);
    await dialog.getByLabel(/to confirm/).fill(target!.name);
    await dialog.getByRole("button", { name: "Remove tracking connection" }).click();
    await expect(page.getByRole("status").filter({ hasText: "was already removed" })).toBeVisible();
    await expect(page.getByRole("rowheader", { name: target!.name, exact: true })).toHaveCount(0);
  });

  test("a lost answer to a removal: the dialog says so, and trying again runs (a removal is safe to repeat)", async ({ page }) => {
    const [target] = await usPixels();
    const keys: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "DELETE") keys.push(request.headers()["idempotency-key"] ?? "");
    });
    await openTracking(page, KEYS.admin);
    const dialog = await openRemoveDialog(page, target!.name);
    await dialog.getByLabel(/to confirm/).fill(target!.name);
    await demo.setFaults([{ route: "pixel-delete", truncateRate: 1, times: 1 }]);
    await dialog.getByRole("button", { name: "Remove tracking connection" }).click();
    await expect(dialog.getByRole("alert")).toContainText("may or may not be removed");
    await dialog.getByRole("button", { name: "Remove tracking connection" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("rowheader", { name: target!.name, exact: true })).toHaveCount(0);
    expect((await usPixels()).map((pixel) => pixel.id)).not.toContain(target!.id);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
  });

  test("a double click on remove runs the removal once", async ({ page }) => {
    const before = await usPixels();
    const deletes: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "DELETE") deletes.push(request.url());
    });
    await openTracking(page, KEYS.admin);
    const dialog = await openRemoveDialog(page, before[0]!.name);
    await dialog.getByLabel(/to confirm/).fill(before[0]!.name);
    await dialog.getByRole("button", { name: "Remove tracking connection" }).dblclick();
    await expect(page.getByRole("status").filter({ hasText: "Removed" })).toBeVisible();
    const state = await demo.state();
    expect(state.pixels[US_STORE]).toHaveLength(before.length - 1);
    expect(deletes).toHaveLength(1);
  });
});
