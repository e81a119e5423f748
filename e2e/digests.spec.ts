import { US_STORE } from "./support/demo";
import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";

const DIGESTS = `/stores/${US_STORE}/digests`;
/** The signed-in person's own address (the admin of Northwind US). */
const OWN = "maya.chen@northwind-outfitters.com";

/** A card of the page, by its heading. */
const card = (page: Page, heading: string | RegExp) =>
  page.locator("section", { has: page.getByRole("heading", { level: 2, name: heading }) });

test("an owner grants read access, schedules a saved view, sends it now into the Outbox, sees the run, and revokes the grant", async ({
  signedInPage: page,
}) => {
  const name = `January digest ${Date.now()}`;
  const saved = await page.request.post(`/api/stores/${US_STORE}/saved-views`, {
    data: { name, search: "range=custom&from=2026-01-01&to=2026-01-31&compare=previous" },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(saved.status()).toBe(201);

  await page.goto(DIGESTS);
  const access = card(page, "Access while you're away");
  await expect(access).toContainText("reads only");
  const grant = access.getByRole("button", { name: "Grant read access" });
  await expect(grant).toBeDisabled();
  await access.getByLabel("Let this dashboard read this store's analytics for my digests and alerts").check();
  await grant.click();
  const grants = access.getByRole("list", { name: "Grants" });
  await expect(grants).toContainText("In force");
  // What earlier journeys left depending on this owner's grant of the store, counted before this one adds to it.
  const inForce = grants.locator("li").filter({ hasText: "In force" }).first();
  await expect(inForce).toContainText(/(No digest or alert rule depends|\d+ digests? (or|and) alert rules? depends? on it)/);
  const listed = /(\d+) digests? (?:or|and) alert rules? depends? on it/.exec(await inForce.innerText());
  const before = listed ? Number(listed[1]) : 0;

  const form = card(page, "Schedule a digest");
  await form.getByLabel("Saved view").selectOption({ label: name });
  await form.getByLabel("How often").selectOption("weekly");
  await form.getByLabel("Weekday (weekly digests)").selectOption({ label: "Monday" });
  await form.getByLabel("Time, in the store's time zone").fill("07:30");
  await form.getByLabel(/^Recipients/).fill(`team@example.com, lead@example.com, ${OWN}`);
  await form.getByRole("button", { name: "Schedule digest" }).click();
  await expect(form.getByRole("status")).toContainText(`Scheduled “${name}”.`);

  const list = page.getByRole("list", { name: "Scheduled digests" });
  const row = list.getByRole("listitem").filter({ hasText: name });
  await expect(row).toContainText("Every Monday at 07:30 (America/New_York)");
  await expect(inForce).toContainText(
    before === 0 ? "1 digest or alert rule depends on it." : `${before + 1} digests and alert rules depend on it.`,
  );

  await row.getByRole("button", { name: `Send “${name}” now` }).click();
  await expect(row.getByRole("status")).toContainText("Queued");
  await row.getByRole("link", { name: "Outbox" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Outbox" })).toBeVisible();
  const message = card(page, new RegExp(`^${name}`))
    .filter({ hasText: "To team@example.com" })
    .first();
  await expect(message).toBeVisible({ timeout: 20_000 });
  await expect(message.frameLocator("iframe").getByRole("table", { name: "Key figures" })).toBeVisible();
  // The whole message shows: the frame is as tall as what it holds, and its time names its zone.
  await expect
    .poll(() =>
      message
        .locator("iframe")
        .evaluate((frame: HTMLIFrameElement) => frame.clientHeight - frame.contentDocument!.documentElement.scrollHeight),
    )
    .toBeGreaterThanOrEqual(0);
  await expect(message.locator("time").first()).toHaveText(/\d{4}, .*(UTC|GMT|[A-Z]{3,4})$/);
  await message.getByText("Plain-text part").click();
  await expect(message.locator("pre")).toContainText("Revenue:");

  // Another recipient's unsubscribe link is theirs alone: the Outbox hides it.
  const text = (await message.locator("pre").textContent()) ?? "";
  expect(text).not.toMatch(/\/api\/unsubscribe\/[\w-]{32}\b/);
  // The signed-in person's own link shows, and works with no sign-in, by one click.
  const own = card(page, new RegExp(`^${name}`)).filter({ hasText: `To ${OWN}` });
  await own.getByText("Plain-text part").click();
  const unsubscribe = /Unsubscribe: (\S+)/.exec((await own.locator("pre").textContent()) ?? "")![1]!;
  const visitor = await page.context().browser()!.newPage();
  await visitor.goto(unsubscribe);
  await visitor.getByRole("button", { name: "Unsubscribe" }).click();
  await expect(visitor.getByRole("heading", { name: "You are unsubscribed" })).toBeVisible();
  await visitor.close();

  // Its link opens exactly the saved view.
  const viewLink = new URL(/Open this view: (\S+)/.exec(text)![1]!);
  await page.goto(`${viewLink.pathname}${viewLink.search}`);
  await expect(page).toHaveURL(/from=2026-01-01/);
  // The previous period is the default comparison, so the link need not say it.
  await expect(page.getByLabel("Compare with")).toHaveValue("previous");
  await expect(page.getByRole("heading", { level: 1, name: "Northwind Outfitters (US)" })).toBeVisible();

  await page.goto("/runs");
  await expect(page.getByRole("heading", { level: 1, name: "Runs and deliveries" })).toBeVisible();
  await expect(page.getByRole("table", { name: "Recent runs" }).getByRole("row").filter({ hasText: "Digest" }).first()).toContainText(
    "Done",
  );
  await expect(page.getByRole("list", { name: "Recent deliveries" })).toContainText("Sent");
  // Times carry their zone.
  await expect(page.getByRole("list", { name: "Recent deliveries" }).locator("time").first()).toHaveText(/\d{4}, .*(UTC|GMT|[A-Z]{3,4})$/);

  // Revoking the grant stops the digest that depends on it.
  await page.goto(DIGESTS);
  await expect(row).toContainText(/unsubscribed|lead@example.com/);
  await grants
    .getByRole("button", { name: /^Revoke/ })
    .first()
    .click();
  await expect(grants).toContainText("Revoked");
  await expect(row).toContainText("Stopped: its grant has ended");
  await expect(row.getByRole("button", { name: `Send “${name}” now` })).toBeDisabled();
});
