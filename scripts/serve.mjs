#!/usr/bin/env node
// `npm run start:prod`: runs the current release (.releases/current) and never builds. It refuses,
// in one line, when there is no complete build, or when the build was made from other sources than
// this checkout's (unless --any-sources says that is intended, as for a release copied elsewhere).
// It writes nothing anywhere itself.
import { existsSync } from "node:fs";
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

// The server runs from its release's folder and writes nothing there: the release may be read-only.
// Pruning knows a release is in use by the working directory of the processes running from it.
// The embedded database stays where the server was started (a relative DATA_DIR, or the default
// .data, is resolved from there), never inside a release: DATA_DIR is the only folder it writes.
process.env.DATA_DIR = resolve(process.env.DATA_DIR || ".data");
process.chdir(release.dir);
await import(pathToFileURL(join(release.dir, "server.mjs")).href);
