#!/usr/bin/env node
// The home and product journeys again with every clock of the run (this process, the dashboard,
// the demo upstream and Chromium) moved CLOCK_FORWARD_DAYS ahead, 60 by default: an expectation
// that holds only on some dates fails here instead of on that date. libfaketime moves the clocks.
import { accessSync, constants } from "node:fs";
import { spawnSync } from "node:child_process";

const FAKETIME = process.env.FAKETIME_PATH ?? "/usr/bin/faketime";
const days = Number(process.env.CLOCK_FORWARD_DAYS ?? 60);
try {
  accessSync(FAKETIME, constants.X_OK);
} catch {
  console.error(
    [
      `No faketime found at ${FAKETIME}.`,
      "The clock-forward journeys need it. On Debian or Ubuntu:",
      "  sudo DEBIAN_FRONTEND=noninteractive apt-get install -y faketime",
      "or point FAKETIME_PATH at it.",
    ].join("\n"),
  );
  process.exit(1);
}
if (!Number.isInteger(days) || days < 1 || days > 3650) {
  console.error(`CLOCK_FORWARD_DAYS must be a whole number of days from 1 to 3650, not ${process.env.CLOCK_FORWARD_DAYS}.`);
  process.exit(1);
}
console.log(`The home and product journeys with the clock ${days} days ahead:`);
const run = spawnSync(
  FAKETIME,
  ["-f", `+${days}d`, "npx", "playwright", "test", "e2e/home-numbers.spec.ts", "e2e/products.spec.ts", "e2e/charts-comparison.spec.ts"],
  // These journeys never use the rollups dashboard: it is not started.
  { stdio: "inherit", env: { ...process.env, E2E_ROLLUPS: "off" } },
);
process.exit(run.status ?? 1);
