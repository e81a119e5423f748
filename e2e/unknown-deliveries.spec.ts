import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { startMailSink, type MailSink } from "@/test/mail-sink";
import { E2E_DEMO_UPSTREAM_PORT } from "../playwright.config";
import { KEYS, US_STORE } from "./support/demo";
import { startOwnDashboard, type OwnDashboard } from "./support/own-dashboard";
import { expect, test } from "./support/fixtures";

/**
 * A digest handed to a mail server that takes the message and then never answers: its outcome is
 * unknown, so it waits on the Runs page for its owner, who presses Send again once; it goes under
 * a new key, arrives, and is not offered again. A dashboard of its own (the suite's has no SMTP
 * server), the production release, on the suite's demo upstream, and a real SMTP server.
 */
let sink: MailSink;
let dashboard: OwnDashboard;
let dataDir: string;

test.beforeAll(async () => {
  sink = await startMailSink();
  dataDir = mkdtempSync(join(tmpdir(), "dash-unknown-e2e-"));
  dashboard = await startOwnDashboard({
    UPSTREAM_BASE_URL: `http://127.0.0.1:${E2E_DEMO_UPSTREAM_PORT}/v1`,
    SESSION_SECRET: "unknown-deliveries-secret-".padEnd(48, "x"),
    SESSION_COOKIE_SECURE: "0",
    DELEGATION_KEY: "unknown-deliveries-master-key-".padEnd(48, "k"),
    EMBEDDED_DATABASE: "1",
    DATA_DIR: dataDir,
    SMTP_URL: sink.url,
    // A silent server is given up on after a second: the message's outcome is then unknown.
    SMTP_TIMEOUT_MS: "1000",
    APP_ORIGIN: "https://dashboard.example.com",
    TRUST_PROXY_HOPS: "1",
  });
});

test.afterAll(async () => {
  await dashboard?.stop();
  await sink?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** A card of the page, by its heading. */
const card = (page: Page, heading: string) => page.locator("section", { has: page.getByRole("heading", { level: 2, name: heading }) });

test("a message of unknown outcome waits for its owner, who sends it again once", async ({ page }) => {
  test.setTimeout(120_000);
  const origin = dashboard.origin;
  await page.goto(`${origin}/sign-in?next=${encodeURIComponent("/context")}`);
  await page.getByLabel("API key").fill(KEYS.admin);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/context$/);

  // A digest of a saved view, sent now, while the mail server takes messages and never answers.
  const post = (path: string, data: unknown) => page.request.post(`${origin}${path}`, { data, headers: { origin } });
  const name = `Silent server digest ${Date.now()}`;
  const view = await post(`/api/stores/${US_STORE}/saved-views`, { name, search: "range=custom&from=2026-01-01&to=2026-01-14" });
  expect(view.status()).toBe(201);
  expect((await post(`/api/stores/${US_STORE}/grants`, { consent: true })).status()).toBe(201);
  const { id: savedViewId } = (await view.json()) as { id: string };
  const digest = await post(`/api/stores/${US_STORE}/digests`, {
    savedViewId,
    cadence: "daily",
    localTime: "07:00",
    recipients: ["team@example.com"],
  });
  expect(digest.status()).toBe(201);
  const { id: digestId } = (await digest.json()) as { id: string };
  sink.silence(true);
  expect((await post(`/api/stores/${US_STORE}/digests/${digestId}/send`, {})).status()).toBe(202);
  const [first] = await sink.waitFor(1, 30_000);
  sink.silence(false);

  await page.goto(`${origin}/runs`);
  const decisions = card(page, "Needs a decision");
  const message = decisions.getByRole("listitem").filter({ hasText: first!.subject! });
  await expect(message).toContainText("The mail server did not answer after the message was sent: it may have arrived.", {
    timeout: 30_000,
  });
  await expect(message).toContainText("To team@example.com");
  await expect(message).toContainText("ask team@example.com whether it arrived, or look for it in the mail server's log");

  await message.getByRole("button", { name: "Send again" }).click();
  // The message leaves the list, the new one arrives, and the deliveries list says who sent it again.
  await expect(decisions).toHaveCount(0, { timeout: 20_000 });
  const again = await sink.waitFor(2, 30_000);
  expect(again.map((mail) => mail.subject)).toEqual([first!.subject, first!.subject]);
  const deliveries = page.getByRole("list", { name: "Recent deliveries" });
  await expect(deliveries.getByRole("listitem").filter({ hasText: "Sent again by" })).toHaveCount(1);
  const sentAgain = deliveries.getByRole("listitem").filter({ hasText: first!.subject! }).filter({ hasNotText: "Sent again by" });
  await expect(sentAgain).toHaveCount(1);
  await expect(sentAgain).toContainText("Sent");
  await expect(page.getByRole("button", { name: "Send again" })).toHaveCount(0);
  // Nothing more is sent: the decision is not offered again after a reload either.
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Runs and deliveries" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Send again" })).toHaveCount(0);
  expect(sink.messages).toHaveLength(2);
});
