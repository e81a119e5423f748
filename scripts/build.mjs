#!/usr/bin/env node
// Production build of the dashboard, recorded with a hash of its sources so that `npm start`
// rebuilds only when they change: `node scripts/build.mjs` always builds, `--if-stale` only
// when the recorded hash differs (a build already running elsewhere is waited for).
import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** What `next build` reads. Unit tests beside the code are not built, so they are left out. */
export const BUILD_INPUTS = [
  "app",
  "components",
  "lib",
  "public",
  "proxy.ts",
  "instrumentation.ts",
  "next.config.ts",
  "postcss.config.mjs",
  "tsconfig.json",
  "tsconfig.build.json",
  "package-lock.json",
];

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

const recordedHashFile = (root) => join(root, ".next/source-hash");

export function buildIsCurrent(root = ROOT) {
  const recorded = recordedHashFile(root);
  return existsSync(join(root, ".next/BUILD_ID")) && existsSync(recorded) && readFileSync(recorded, "utf8") === sourceHash(root);
}

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
function withBuildLock(root, run) {
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
    return run();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Builds (or, with `ifStale`, only when the sources changed); returns the exit status of `next build`, 0 when skipped. */
export function buildDashboard({ root = ROOT, ifStale = false } = {}) {
  return withBuildLock(root, () => {
    if (ifStale && buildIsCurrent(root)) return 0;
    // Hashed before building, so an edit made during the build makes the next start rebuild.
    const hash = sourceHash(root);
    const build = spawnSync(process.execPath, [join(root, "node_modules/next/dist/bin/next"), "build"], {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    });
    if (build.status === 0) writeFileSync(recordedHashFile(root), hash);
    return build.status ?? 1;
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  process.exit(buildDashboard({ ifStale: process.argv.includes("--if-stale") }));
}
