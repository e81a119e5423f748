// Releases: each build of the dashboard is a self-contained directory `.releases/<build id>/`
// (Next's standalone server with its static files, the server program, the migrations and a
// release.json), and `.releases/current` points at the newest. A build never writes into a
// release a server runs from: it assembles a new one and switches the link atomically.
import { createHash } from "node:crypto";
import {
  existsSync,
  lstatSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
} from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** What a build is made from. Unit tests beside the code are not built, so they are left out. */
export const BUILD_INPUTS = [
  "app",
  "components",
  "server",
  "shared",
  "client",
  "public",
  "proxy.ts",
  "instrumentation.ts",
  "next.config.ts",
  "postcss.config.mjs",
  "tsconfig.json",
  "tsconfig.build.json",
  "package.json",
  "package-lock.json",
];

/** Files every complete release holds; a release without one of them is never served. */
const REQUIRED = ["release.json", "server.mjs", ".next/BUILD_ID", ".next/required-server-files.json", ".next/static"];

function filesUnder(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .filter((name) => !name.startsWith(".") && !name.endsWith(".test.ts"))
    .flatMap((name) => filesUnder(join(path, name)));
}

/** sha256 of the build inputs' paths and contents: unlike mtimes, it survives `npm install` touching files. */
export function sourceHash(root = ROOT, inputs = BUILD_INPUTS) {
  const hash = createHash("sha256");
  const files = inputs.flatMap((input) => filesUnder(join(root, input))).map((file) => relative(root, file).split("\\").join("/"));
  for (const file of files.sort())
    hash
      .update(`${file}\0`)
      .update(readFileSync(join(root, file)))
      .update("\0");
  return hash.digest("hex");
}

/** The build id of a set of sources: the same sources always make the same release. */
export const buildIdOf = (hash) => hash.slice(0, 16);

export const releasesDir = (root = ROOT) => join(root, ".releases");
const currentLink = (root) => join(releasesDir(root), "current");

export function releaseIsComplete(dir) {
  return REQUIRED.every((file) => existsSync(join(dir, file)));
}

export function readRelease(dir) {
  return JSON.parse(readFileSync(join(dir, "release.json"), "utf8"));
}

/** The release `current` points at, if it is complete: its directory (resolved) and its release.json. */
export function currentRelease(root = ROOT) {
  const link = currentLink(root);
  if (!existsSync(link)) return null;
  const dir = realpathSync(link);
  return releaseIsComplete(dir) ? { dir, info: readRelease(dir) } : null;
}

/** Whether `current` is a complete release of exactly these sources. */
export function buildIsCurrent(root = ROOT) {
  const current = currentRelease(root);
  return current !== null && current.info.sourceHash === sourceHash(root);
}

/** Points `current` at a release, atomically (a new link renamed over the old one). */
export function switchCurrent(root, buildId) {
  const next = join(releasesDir(root), `current.${process.pid}`);
  rmSync(next, { force: true });
  symlinkSync(buildId, next);
  renameSync(next, currentLink(root));
}

function isRunning(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}

/** Whether a server still runs from a release (each writes `.pids/<pid>` while it runs). */
function inUse(dir) {
  const pids = join(dir, ".pids");
  return existsSync(pids) && readdirSync(pids).some((pid) => isRunning(Number(pid)));
}

/** Deletes old releases: the newest `keep` stay, and so do the current one and any a server still runs from. */
export function pruneReleases(root = ROOT, keep = 3) {
  const dir = releasesDir(root);
  if (!existsSync(dir)) return;
  const current = existsSync(currentLink(root)) ? readlinkSync(currentLink(root)) : null;
  const releases = readdirSync(dir)
    .filter((name) => name !== "current" && !name.startsWith("current.") && lstatSync(join(dir, name)).isDirectory())
    .map((name) => ({ name, time: statSync(join(dir, name)).mtimeMs }))
    .sort((a, b) => b.time - a.time);
  for (const { name } of releases.slice(keep)) {
    const path = join(dir, name);
    if (name === current || inUse(path)) continue;
    rmSync(path, { recursive: true, force: true });
  }
}
