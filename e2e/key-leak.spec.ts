import type { Response } from "@playwright/test";
import { KEYS, US_STORE } from "./support/demo";
import { expect, signInWithKey, test } from "./support/fixtures";

test("the API key never reaches anything the browser can read, during a whole journey", async ({ page }) => {
  const seen: { where: string; text: string }[] = [];
  const pending: Promise<void>[] = [];
  const record = (response: Response) =>
    pending.push(
      (async () => {
        const headers = await response.allHeaders();
        seen.push({ where: `headers of ${response.url()}`, text: JSON.stringify(headers) });
        const body = await response.body().catch(() => Buffer.alloc(0));
        seen.push({ where: `body of ${response.url()}`, text: body.toString("latin1") });
      })(),
    );
  page.on("response", record);

  await signInWithKey(page, KEYS.admin);
  await expect(page).toHaveURL(/\/context$/);
  await expect(page.getByRole("heading", { name: /Northwind Outfitters/ })).toBeVisible();
  await page.getByRole("link", { name: US_STORE }).click();
  await expect(page.getByText("America/New_York").first()).toBeVisible();
  await page.getByRole("navigation", { name: "Store sections" }).getByRole("link", { name: "Product metrics", exact: true }).click();
  await page.getByRole("link", { name: "Tracking connections" }).click();
  await page.reload();
  await expect(page.getByRole("navigation", { name: "Store sections" })).toBeVisible();

  const html = await page.content();
  const storage = await page.evaluate(() => ({
    cookie: document.cookie,
    local: JSON.stringify({ ...localStorage }),
    session: JSON.stringify({ ...sessionStorage }),
  }));
  seen.push({ where: "HTML", text: html }, { where: "document.cookie", text: storage.cookie });
  seen.push({ where: "localStorage", text: storage.local }, { where: "sessionStorage", text: storage.session });
  const cookies = await page.context().cookies();
  seen.push({ where: "cookie jar", text: JSON.stringify(cookies) });

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await Promise.all(pending);

  expect(seen.length).toBeGreaterThan(10);
  const leaks = seen.filter(({ text }) => text.includes(KEYS.admin)).map(({ where }) => where);
  expect(leaks).toEqual([]);
  // The session cookie exists but is httpOnly and sealed: scripts cannot see it.
  const session = cookies.find((cookie) => cookie.name === "session");
  expect(session?.httpOnly).toBe(true);
  expect(storage.cookie).not.toContain("session=");
});
