#!/usr/bin/env node
// `npm run start:prod`: runs the current release (.releases/current) and never builds. It refuses,
// in one line, when there is no complete build, or when the build was made from other sources than
// this checkout's (unless --any-sources says that is intended, as for a release copied elsewhere).
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { currentRelease, ROOT, sourceHash } from "./releases.mjs";

function fail(message) {
  console.error(message);
  process.exit(1);
}

const release = currentRelease(ROOT);
if (!release) fail("There is no complete build in .releases/current: run `npm run build` first.");
// A checkout holds its sources; a release copied on its own is judged by --any-sources alone.
const hasSources = existsSync(join(ROOT, "app")) && existsSync(join(ROOT, "server"));
if (hasSources && !process.argv.includes("--any-sources") && release.info.sourceHash !== sourceHash(ROOT)) {
  fail(
    `The build in .releases/current (${release.info.buildId}) was made from other sources than this checkout: run \`npm run build\`, or start with --any-sources to serve it anyway.`,
  );
}

// Each server marks the release it runs from, so that pruning old releases leaves it alone.
const pidFile = join(release.dir, ".pids", String(process.pid));
mkdirSync(join(release.dir, ".pids"), { recursive: true });
writeFileSync(pidFile, "");
process.on("exit", () => rmSync(pidFile, { force: true }));

// The server runs from its release's folder; the embedded database stays where it was started
// (a relative DATA_DIR, or the default .data, is read from there), never inside a release.
process.env.DATA_DIR = resolve(process.env.DATA_DIR || ".data");
process.chdir(release.dir);
await import(pathToFileURL(join(release.dir, "server.mjs")).href);
