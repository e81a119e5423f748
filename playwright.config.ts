import { defineConfig, devices } from "@playwright/test";
import { chromiumLaunchOptions } from "./e2e/support/chromium";

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
export const E2E_DEMO_UPSTREAM_PORT = Number(process.env.E2E_DEMO_UPSTREAM_PORT ?? 4110);
const baseURL = `http://localhost:${E2E_PORT}`;
const E2E_DATA_DIR = `.data/e2e-${E2E_PORT}`;

export default defineConfig({
  testDir: "e2e",
  // One worker: tests share the demo upstream, whose state and faults they change.
  workers: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: process.env.CI ? 1 : 0,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"], ["html", { open: "never" }]] : [["list"]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: chromiumLaunchOptions,
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  webServer: {
    // A fresh database for each run: what one run left (sessions, Activity) never leaks into the next.
    command: `rm -rf ${E2E_DATA_DIR} && exec node --conditions=react-server --import tsx scripts/start.ts`,
    url: `${baseURL}/api/health/live`,
    reuseExistingServer: !process.env.CI,
    timeout: 240_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: String(E2E_PORT),
      DATA_DIR: E2E_DATA_DIR,
      DEMO_UPSTREAM_PORT: String(E2E_DEMO_UPSTREAM_PORT),
      DEMO_UPSTREAM_CONTROL: "1",
      UPSTREAM_TIMEOUT_MS: "4000",
      // As behind one reverse proxy: each test sends its own X-Forwarded-For, so the
      // sign-in failure limit counts each test as its own client.
      TRUST_PROXY_HOPS: "1",
      NEXT_TELEMETRY_DISABLED: "1",
      // The alert journeys send webhooks to a receiver on this machine.
      WEBHOOK_ALLOW_PRIVATE: "1",
      // Day rollups on the embedded database too; a stored day is read again after 5 s, so a restated day is found within one journey.
      ROLLUPS: "on",
      ROLLUP_REVALIDATE_SECONDS: "5",
    },
  },
});
