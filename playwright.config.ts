import { defineConfig, devices } from "@playwright/test";
import { chromiumLaunchOptions } from "./e2e/support/chromium";

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
export const E2E_DEMO_UPSTREAM_PORT = Number(process.env.E2E_DEMO_UPSTREAM_PORT ?? 4110);
/**
 * A second dashboard with the day rollups on, for the journeys that need them (e2e/data-changes.spec.ts):
 * the suite's own server keeps the default (ROLLUPS unset: off on the embedded PGlite), so no other
 * journey pays for writing rollups. Its ports follow the suite's, so overriding those moves both.
 */
export const E2E_ROLLUPS_PORT = Number(process.env.E2E_ROLLUPS_PORT ?? E2E_PORT + 1);
export const E2E_ROLLUPS_DEMO_UPSTREAM_PORT = Number(process.env.E2E_ROLLUPS_DEMO_UPSTREAM_PORT ?? E2E_DEMO_UPSTREAM_PORT + 1);
export const E2E_ROLLUPS_BASE_URL = `http://localhost:${E2E_ROLLUPS_PORT}`;
const baseURL = `http://localhost:${E2E_PORT}`;

const ports = [E2E_PORT, E2E_DEMO_UPSTREAM_PORT, E2E_ROLLUPS_PORT, E2E_ROLLUPS_DEMO_UPSTREAM_PORT];
if (new Set(ports).size !== ports.length) throw new Error(`end-to-end ports collide: ${ports.join(", ")}`);

/** One end-to-end dashboard with its own demo upstream and a fresh database for each run. */
function dashboard(port: number, demoUpstreamPort: number, extraEnv: Record<string, string> = {}) {
  const dataDir = `.data/e2e-${port}`;
  return {
    // A fresh database for each run: what one run left (sessions, Activity) never leaks into the next.
    command: `rm -rf ${dataDir} && exec node --conditions=react-server --import tsx scripts/start.ts`,
    url: `http://localhost:${port}/api/health/live`,
    reuseExistingServer: !process.env.CI,
    timeout: 240_000,
    stdout: "ignore" as const,
    stderr: "pipe" as const,
    env: {
      PORT: String(port),
      DATA_DIR: dataDir,
      DEMO_UPSTREAM_PORT: String(demoUpstreamPort),
      DEMO_UPSTREAM_CONTROL: "1",
      UPSTREAM_TIMEOUT_MS: "4000",
      // As behind one reverse proxy: each test sends its own X-Forwarded-For, so the
      // sign-in failure limit counts each test as its own client.
      TRUST_PROXY_HOPS: "1",
      NEXT_TELEMETRY_DISABLED: "1",
      // The alert journeys send webhooks to a receiver on this machine.
      WEBHOOK_ALLOW_PRIVATE: "1",
      ...extraEnv,
    },
  };
}

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
  webServer: [
    dashboard(E2E_PORT, E2E_DEMO_UPSTREAM_PORT),
    // Day rollups on the embedded database too; a stored day is read again after 5 s, so a restated day is found within one journey.
    dashboard(E2E_ROLLUPS_PORT, E2E_ROLLUPS_DEMO_UPSTREAM_PORT, { ROLLUPS: "on", ROLLUP_REVALIDATE_SECONDS: "5" }),
  ],
});
