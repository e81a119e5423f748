import { defineConfig, devices } from "@playwright/test";
import { chromiumLaunchOptions } from "./e2e/support/chromium";

/**
 * Workers may run side by side (E2E_WORKERS), each against a dashboard and a demo upstream of its own
 * (tests change the demo upstream's state and faults, and the dashboard's database): what one worker's
 * test does never reaches another's. One by default: on a 2-core machine two workers were no faster
 * (Chromium's renderer keeps about one core busy), and two journeys passed only on their retry. Set the number here, not with `--workers`: a worker
 * beyond E2E_WORKERS would have no dashboard.
 */
export const E2E_WORKERS = Number(process.env.E2E_WORKERS ?? 1);
if (!Number.isInteger(E2E_WORKERS) || E2E_WORKERS < 1)
  throw new Error(`E2E_WORKERS must be a whole number from 1, not ${process.env.E2E_WORKERS}`);
const FIRST_PORT = Number(process.env.E2E_PORT ?? 3100);
const FIRST_DEMO_UPSTREAM_PORT = Number(process.env.E2E_DEMO_UPSTREAM_PORT ?? 4110);
/** The ports of worker `slot`'s pair: the first on E2E_PORT and E2E_DEMO_UPSTREAM_PORT, the others after the rollups pair's. */
const pairPorts = (slot: number) =>
  slot === 0 ? [FIRST_PORT, FIRST_DEMO_UPSTREAM_PORT] : [FIRST_PORT + 1 + slot, FIRST_DEMO_UPSTREAM_PORT + 1 + slot];
/** Playwright loads this file again in each worker, with the worker's slot (0 … workers - 1) in TEST_PARALLEL_INDEX. */
const SLOT = Number(process.env.TEST_PARALLEL_INDEX ?? 0);
if (SLOT >= E2E_WORKERS) throw new Error(`worker ${SLOT} has no dashboard: set E2E_WORKERS rather than --workers`);
/** This worker's dashboard and demo upstream. */
export const [E2E_PORT, E2E_DEMO_UPSTREAM_PORT] = pairPorts(SLOT) as [number, number];
/**
 * A second dashboard with the day rollups on, for the journeys that need them (e2e/data-changes.spec.ts):
 * the suite's own servers keep the default (ROLLUPS unset: off on the embedded PGlite), so no other
 * journey pays for writing rollups. Its ports follow the suite's, so overriding those moves both.
 * E2E_ROLLUPS=off leaves it out, for runs of journeys that do not use it (scripts/clock-forward.mjs).
 */
const withRollups = process.env.E2E_ROLLUPS !== "off";
export const E2E_ROLLUPS_PORT = Number(process.env.E2E_ROLLUPS_PORT ?? FIRST_PORT + 1);
export const E2E_ROLLUPS_DEMO_UPSTREAM_PORT = Number(process.env.E2E_ROLLUPS_DEMO_UPSTREAM_PORT ?? FIRST_DEMO_UPSTREAM_PORT + 1);
export const E2E_ROLLUPS_BASE_URL = `http://localhost:${E2E_ROLLUPS_PORT}`;
const baseURL = `http://localhost:${E2E_PORT}`;

const pairs = Array.from({ length: E2E_WORKERS }, (_, slot) => pairPorts(slot) as [number, number]);
const ports = [...pairs.flat(), E2E_ROLLUPS_PORT, E2E_ROLLUPS_DEMO_UPSTREAM_PORT];
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
  workers: E2E_WORKERS,
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
    ...pairs.map(([port, demoUpstreamPort]) => dashboard(port, demoUpstreamPort)),
    // Day rollups on the embedded database too; a stored day is read again after 2 s, so a restated day is found within one journey.
    ...(withRollups
      ? [dashboard(E2E_ROLLUPS_PORT, E2E_ROLLUPS_DEMO_UPSTREAM_PORT, { ROLLUPS: "on", ROLLUP_REVALIDATE_SECONDS: "2" })]
      : []),
  ],
});
