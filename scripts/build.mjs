#!/usr/bin/env node
// The production build: `next build` (standalone), the server program bundled with esbuild, and
// both assembled into a new release `.releases/<build id>/`, which `.releases/current` then
// points at. `node scripts/build.mjs` always builds; `--if-stale` only when `current` was built
// from other sources (a build already running for this checkout is waited for).
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createHash } from "node:crypto";
import { build as esbuild } from "esbuild";
import { buildIdOf, buildIsCurrent, pruneReleases, releaseIsComplete, releasesDir, ROOT, sourceHash, switchCurrent } from "./releases.mjs";

/** Packages the server uses from node_modules rather than bundled: Next.js traces them into the release (next.config.ts). */
const SERVER_PACKAGES = JSON.parse(readFileSync(new URL("./server-packages.json", import.meta.url), "utf8"));

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function isRunning(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** One build at a time per checkout; a lock left by a process that died is taken over. */
async function withBuildLock(root, run) {
  const lock = join(tmpdir(), `dashboard-build-${createHash("sha256").update(root).digest("hex").slice(0, 16)}.lock`);
  for (let waitedMs = 0; ; waitedMs += 500) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, "pid"), String(process.pid));
      break;
    } catch (error) {
      if (error.code !== "EEXIST") throw error;
      const pidFile = join(lock, "pid");
      const owner = existsSync(pidFile) ? Number(readFileSync(pidFile, "utf8")) : Number.NaN;
      // A lock without a pid for seconds was left by a process that died right after taking it.
      const abandoned = Number.isInteger(owner) ? !isRunning(owner) : waitedMs >= 5_000;
      if (abandoned) rmSync(lock, { recursive: true, force: true });
      else if (waitedMs > 15 * 60_000) throw new Error(`another build has held ${lock} for 15 minutes`);
      else sleep(500);
    }
  }
  try {
    return await run();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** The server program, bundled: our code inline, Next.js and the server packages from the release's node_modules. */
async function bundleServer(root, outfile) {
  await esbuild({
    entryPoints: [join(root, "server/main.ts")],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // `server-only` is empty for server code (its "react-server" export).
    conditions: ["react-server"],
    external: ["next", "next/*", ...SERVER_PACKAGES],
    tsconfig: join(root, "tsconfig.json"),
    banner: { js: 'import { createRequire as dashboardRequire } from "node:module"; const require = dashboardRequire(import.meta.url);' },
    logLevel: "warning",
  });
}

const newestMigration = (root) =>
  readdirSync(join(root, "server/db/migrations"))
    .filter((name) => name.endsWith(".sql"))
    .sort()
    .at(-1)
    ?.slice(0, -4) ?? "";

/** Assembles a release from the finished `next build`, in a staging directory renamed into place once complete. */
async function assembleRelease(root, hash) {
  const buildId = buildIdOf(hash);
  const target = join(releasesDir(root), buildId);
  const staging = `${target}.staging-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  // Symlinks stay links: Next's traced packages are linked from inside .next.
  cpSync(join(root, ".next/standalone"), staging, { recursive: true, verbatimSymlinks: true });
  rmSync(join(staging, "server.js"), { force: true });
  cpSync(join(root, ".next/static"), join(staging, ".next/static"), { recursive: true });
  if (existsSync(join(root, "public"))) cpSync(join(root, "public"), join(staging, "public"), { recursive: true });
  cpSync(join(root, "server/db/migrations"), join(staging, "server/db/migrations"), { recursive: true });
  cpSync(join(root, "server/db/pglite-initdb.mjs"), join(staging, "server/db/pglite-initdb.mjs"));
  await bundleServer(root, join(staging, "server.mjs"));
  const version = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version;
  const release = { version, buildId, sourceHash: hash, migration: newestMigration(root), builtAt: new Date().toISOString() };
  writeFileSync(join(staging, "release.json"), `${JSON.stringify(release, null, 2)}\n`);
  if (!releaseIsComplete(staging)) throw new Error(`the release assembled in ${staging} is incomplete`);
  rmSync(target, { recursive: true, force: true });
  mkdirSync(releasesDir(root), { recursive: true });
  cpSync(staging, target, { recursive: true, verbatimSymlinks: true });
  rmSync(staging, { recursive: true, force: true });
  switchCurrent(root, buildId);
  pruneReleases(root);
  return buildId;
}

/** Builds (or, with `ifStale`, only when the sources changed); resolves with an exit status, 0 when skipped. */
export async function buildDashboard({ root = ROOT, ifStale = false } = {}) {
  return withBuildLock(root, async () => {
    if (ifStale && buildIsCurrent(root)) return 0;
    // Hashed before building, so an edit made during the build makes the next start rebuild.
    const hash = sourceHash(root);
    const existing = join(releasesDir(root), buildIdOf(hash));
    if (releaseIsComplete(existing)) {
      switchCurrent(root, buildIdOf(hash));
      return 0;
    }
    // next.config.ts reads the build id from here: the same sources always make the same build id.
    mkdirSync(releasesDir(root), { recursive: true });
    writeFileSync(join(releasesDir(root), "next-build-id"), buildIdOf(hash));
    const build = spawnSync(process.execPath, [join(root, "node_modules/next/dist/bin/next"), "build"], {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    });
    if (build.status !== 0) return build.status ?? 1;
    const buildId = await assembleRelease(root, hash);
    console.log(`Release ${buildId} is ready in ${join(".releases", buildId)}; .releases/current points at it.`);
    return 0;
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  process.exit(await buildDashboard({ ifStale: process.argv.includes("--if-stale") }));
}
