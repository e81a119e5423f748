#!/usr/bin/env node
// The production build: `next build` (standalone), the server program bundled with esbuild, and
// both assembled into a new release `.releases/<build id>/`, which `.releases/current` then
// points at. `node scripts/build.mjs` always builds; `--if-stale` only when `current` was built
// from other sources (a build already running for this checkout is waited for).
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build as esbuild } from "esbuild";
import { withBuildLock } from "./build-lock.mjs";
import {
  buildIdOf,
  buildIsCurrent,
  installRelease,
  pruneReleases,
  releaseIsComplete,
  releasesDir,
  ROOT,
  sourceHash,
  switchCurrent,
} from "./releases.mjs";

/** Packages the server uses from node_modules rather than bundled: Next.js traces them into the release (next.config.ts). */
const SERVER_PACKAGES = JSON.parse(readFileSync(new URL("./server-packages.json", import.meta.url), "utf8"));

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

/** The worker thread that parses and sums upstream rows (server/metrics/rows-worker.ts): a program of its own, next to the server. */
export async function bundleRowsWorker(root, outfile) {
  await esbuild({
    entryPoints: [join(root, "server/metrics/rows-worker.ts")],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    tsconfig: join(root, "tsconfig.json"),
    logLevel: "warning",
  });
}

const newestMigration = (root) =>
  readdirSync(join(root, "server/db/migrations"))
    .filter((name) => name.endsWith(".sql"))
    .sort()
    .at(-1)
    ?.slice(0, -4) ?? "";

/** Assembles a release from the finished `next build` in a staging folder, renamed into place once complete. */
async function assembleRelease(root, hash) {
  const buildId = buildIdOf(hash);
  await installRelease(root, buildId, async (staging) => {
    // Symlinks stay links: Next's traced packages are linked from inside .next.
    cpSync(join(root, ".next/standalone"), staging, { recursive: true, verbatimSymlinks: true });
    rmSync(join(staging, "server.js"), { force: true });
    cpSync(join(root, ".next/static"), join(staging, ".next/static"), { recursive: true });
    if (existsSync(join(root, "public"))) cpSync(join(root, "public"), join(staging, "public"), { recursive: true });
    cpSync(join(root, "server/db/migrations"), join(staging, "server/db/migrations"), { recursive: true });
    cpSync(join(root, "server/db/pglite-initdb.mjs"), join(staging, "server/db/pglite-initdb.mjs"));
    await bundleServer(root, join(staging, "server.mjs"));
    await bundleRowsWorker(root, join(staging, "rows-worker.mjs"));
    const version = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version;
    const release = { version, buildId, sourceHash: hash, migration: newestMigration(root), builtAt: new Date().toISOString() };
    writeFileSync(join(staging, "release.json"), `${JSON.stringify(release, null, 2)}\n`);
  });
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
