#!/usr/bin/env node
// The end-to-end tests drive the system's Chromium; stop early, and say how to get one, when it is missing.
import { accessSync, constants } from "node:fs";

const path = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
try {
  accessSync(path, constants.X_OK);
} catch {
  console.error(
    [
      `No Chromium found at ${path}.`,
      "The end-to-end tests need one. On Debian or Ubuntu:",
      "  sudo DEBIAN_FRONTEND=noninteractive apt-get install -y chromium",
      "or point CHROMIUM_PATH at an existing Chromium or Chrome binary.",
    ].join("\n"),
  );
  process.exit(1);
}
