// Releases: each build of the dashboard is a self-contained directory `.releases/<build id>/`
// (Next's standalone server with its static files, the server program, the migrations and a
// release.json), and `.releases/current` points at the newest. A build never writes into a
// release a server runs from: it assembles a new one in a staging folder beside the others,
// renames it into place once complete, and switches the link by renaming a new one over it. A
// crash at any point leaves `current` on the old release or on a complete new one. Nothing
// writes into a release once it is in place: a server running from one is known by its working
// directory (serve.mjs runs from its release), so pruning leaves it alone.
import { createHash } from "node:crypto";
import {
  existsSync,
  lstatSync,
  mkdirSync,
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
import { isRunning } from "../server/runtime/pid-file.mjs";

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
const REQUIRED = ["release.json", "server.mjs", "rows-worker.mjs", ".next/BUILD_ID", ".next/required-server-files.json", ".next/static"];

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

const STAGING = /^\.staging-[0-9a-f]+-(\d+)$/;

/**
 * Builds a release in `.releases/.staging-<build id>-<pid>/` with `fill(staging)` (which writes
 * every file, release.json last), renames it into place as `.releases/<build id>/` and points
 * `current` at it. A crash before the rename leaves only a staging folder, which a later build
 * or prune removes.
 */
export async function installRelease(root, buildId, fill) {
  const dir = releasesDir(root);
  mkdirSync(dir, { recursive: true });
  const staging = join(dir, `.staging-${buildId}-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging);
  await fill(staging);
  if (!releaseIsComplete(staging)) throw new Error(`the release assembled in ${staging} is incomplete`);
  const target = join(dir, buildId);
  // An incomplete folder of the same id (an older layout, or one copied by hand) makes way; a complete one is never rebuilt.
  if (existsSync(target)) renameSync(target, join(dir, `.staging-${buildId}-${process.pid}-old`));
  renameSync(staging, target);
  rmSync(join(dir, `.staging-${buildId}-${process.pid}-old`), { recursive: true, force: true });
  switchCurrent(root, buildId);
}

/** The working directories of running processes (Linux's /proc); null where that cannot be read. */
function workingDirectories() {
  if (!existsSync("/proc/self/cwd")) return null;
  const dirs = new Set();
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      dirs.add(realpathSync(`/proc/${pid}/cwd`));
    } catch {
      // Gone, or another user's process: its cwd cannot be read.
    }
  }
  return dirs;
}

/**
 * Deletes old releases: the newest `keep` stay, and so do the current one and any a server runs
 * from (its working directory; where that cannot be known, nothing old is deleted). Staging
 * folders of builds that died are removed.
 */
export function pruneReleases(root = ROOT, keep = 3) {
  const dir = releasesDir(root);
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    const staging = STAGING.exec(name) ?? /^\.staging-[0-9a-f]+-(\d+)-old$/.exec(name);
    if (staging && !isRunning(Number(staging[1]))) rmSync(join(dir, name), { recursive: true, force: true });
    if (/^current\.\d+$/.test(name) && !isRunning(Number(name.slice(8)))) rmSync(join(dir, name), { force: true });
  }
  const current = existsSync(currentLink(root)) ? readlinkSync(currentLink(root)) : null;
  const releases = readdirSync(dir)
    .filter(
      (name) => name !== "current" && !name.startsWith(".") && !name.startsWith("current.") && lstatSync(join(dir, name)).isDirectory(),
    )
    .map((name) => ({ name, time: statSync(join(dir, name)).mtimeMs }))
    .sort((a, b) => b.time - a.time);
  const old = releases.slice(keep).filter(({ name }) => name !== current);
  if (old.length === 0) return;
  const inUse = workingDirectories();
  if (!inUse) return;
  for (const { name } of old) {
    const path = realpathSync(join(dir, name));
    if (![...inUse].some((cwd) => cwd === path || cwd.startsWith(`${path}/`))) rmSync(path, { recursive: true, force: true });
  }
}
