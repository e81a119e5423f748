/**
 * Pictures of every page, light and dark, 390 and 1440 px wide, written to screenshots/ (git-ignored):
 *
 *   npm run screenshots                                        starts a dashboard and demo upstream on spare ports
 *   DASHBOARD_URL=http://localhost:3000 npm run screenshots    uses a running dashboard
 *
 * Signs in with SCREENSHOTS_API_KEY (default: the demo admin key) and shows SCREENSHOTS_STORE
 * (default: the demo US store). Exits 1, after taking every picture, when a page did not show
 * what it should (the picture then shows what it showed instead).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromiumLaunchOptions } from "../e2e/support/chromium";
import { chromium, type Browser } from "@playwright/test";
import { freePort, ROOT, runNode, START, type RunningScript } from "../test/processes";

const apiKey = process.env.SCREENSHOTS_API_KEY ?? "sk_demo_admin_nw_us_5d8e2f41c7a9";
const store = process.env.SCREENSHOTS_STORE ?? "northwind-outfitters.myshopify.com";
const outDir = join(ROOT, "screenshots");

/** Each page, and a text it shows once its data has loaded. */
const pages = [
  { name: "sign-in", path: "/sign-in", ready: "Sign in", signedIn: false },
  { name: "context", path: "/context", ready: store, signedIn: true },
  { name: "all-stores", path: "/stores", ready: "Total, per currency", signedIn: true },
  { name: "store", path: `/stores/${store}`, ready: store, signedIn: true },
  { name: "products", path: `/stores/${store}/products?compare=previous`, ready: "Top products by revenue", signedIn: true },
  { name: "tracking", path: `/stores/${store}/tracking`, ready: "Base domain", signedIn: true },
  { name: "clone", path: `/stores/${store}/campaigns/clone`, ready: "Ad account", signedIn: true },
  { name: "activity", path: "/activity", ready: "Activity", signedIn: true },
  { name: "sign-ins", path: "/sign-ins", ready: "This device", signedIn: true },
  { name: "data-changes", path: `/stores/${store}/data-changes`, ready: "Data changes", signedIn: true },
  { name: "verify", path: `/stores/${store}/verify`, ready: "Its manifest", signedIn: true },
  { name: "digests", path: `/stores/${store}/digests`, ready: "Schedule digest", signedIn: true },
  { name: "alerts", path: `/stores/${store}/alerts`, ready: "Alert rules", signedIn: true },
  { name: "inbox", path: "/inbox", ready: "Inbox", signedIn: true },
  { name: "runs", path: "/runs", ready: "Recent runs", signedIn: true },
  { name: "outbox", path: "/outbox", ready: "Outbox", signedIn: true },
];

const viewports = [
  { width: 390, height: 844 },
  { width: 1440, height: 900 },
];

async function startDashboard(): Promise<{ url: string; dashboard: RunningScript }> {
  const port = await freePort();
  const dashboard = runNode(START, { PORT: String(port), DEMO_UPSTREAM_PORT: String(await freePort()) });
  console.log(`Starting a dashboard on port ${port} (builds first if the sources changed)…`);
  await dashboard.waitFor(/Dashboard ready/, 600_000);
  return { url: `http://localhost:${port}`, dashboard };
}

async function stopDashboard(dashboard: RunningScript) {
  dashboard.child.kill("SIGTERM");
  const stopped = await Promise.race([dashboard.exited, new Promise((resolve) => setTimeout(resolve, 30_000, "timeout"))]);
  if (stopped === "timeout") await dashboard.kill();
}

/** Takes every page in one colour scheme and width; returns the pages that did not show their text. */
async function shoot(browser: Browser, url: string, colorScheme: "light" | "dark", viewport: (typeof viewports)[number]) {
  const context = await browser.newContext({ baseURL: url, colorScheme, viewport });
  const notReady: string[] = [];
  try {
    const page = await context.newPage();
    for (const shot of pages) {
      if (shot.signedIn && !(await context.cookies()).some((cookie) => cookie.name === "session")) {
        // Through the sign-in route, whose cookie the browser context shares.
        const signIn = await page.request.post("/api/session", { data: { apiKey }, headers: { origin: url } });
        if (!signIn.ok()) throw new Error(`sign-in failed with ${signIn.status()}: ${await signIn.text()}`);
      }
      await page.goto(shot.path);
      await page.waitForLoadState("networkidle");
      const shown = await page
        .getByText(shot.ready)
        // The first one shown at this width (a phone shows cards where a desktop shows a table).
        .locator("visible=true")
        .first()
        .waitFor({ timeout: 15_000 })
        .then(() => true)
        .catch(() => false);
      const file = `${shot.name}-${colorScheme}-${viewport.width}.png`;
      if (!shown) notReady.push(`${file} (no "${shot.ready}")`);
      // Narrow pages are long: the first screens are what a phone shows.
      const clip = viewport.width < 800 ? { x: 0, y: 0, width: viewport.width, height: 2200 } : undefined;
      await page.screenshot({ path: join(outDir, file), fullPage: true, clip });
      console.log(`  ${file}${shown ? "" : "  (not ready)"}`);
    }
  } finally {
    await context.close();
  }
  return notReady;
}

async function main() {
  mkdirSync(outDir, { recursive: true });
  const started = process.env.DASHBOARD_URL ? undefined : await startDashboard();
  const url = (process.env.DASHBOARD_URL ?? started!.url).replace(/\/$/, "");
  const browser = await chromium.launch(chromiumLaunchOptions);
  const notReady: string[] = [];
  try {
    console.log(`Screenshots of ${url} into screenshots/`);
    for (const colorScheme of ["light", "dark"] as const) {
      for (const viewport of viewports) notReady.push(...(await shoot(browser, url, colorScheme, viewport)));
    }
  } finally {
    await browser.close();
    if (started) await stopDashboard(started.dashboard);
  }
  if (notReady.length > 0) {
    console.error(`Pages that did not finish loading:\n  ${notReady.join("\n  ")}`);
    process.exit(1);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
