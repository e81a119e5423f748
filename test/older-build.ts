/**
 * The build of the commit before the newest migration, in a clone of the repository at that
 * commit, for the upgrade test (scripts/older-build.test.ts). Built once per commit and kept in
 * the system's temporary folder, so that a second run starts it at once.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { childEnv, ROOT } from "./processes";

const git = (args: string[], cwd = ROOT) => execFileSync("git", args, { cwd, encoding: "utf8" }).trim();

/**
 * The newest migration of this checkout, and the release before it: of the commits whose
 * migrations are all this checkout's, under the same names, without the newest, the one that
 * knows most, newest first (HEAD while the newest is not committed). A commit whose migrations
 * were renumbered before they landed never ran anywhere, so it is passed over.
 * OLDER_BUILD_COMMIT names another commit, to try an older build by hand.
 */
export function commitBeforeNewestMigration(): { migration: string; commit: string } {
  const isMigration = (name: string) => /^\d{4}_.*\.sql$/.test(name);
  const current = readdirSync(join(ROOT, "server/db/migrations")).filter(isMigration).sort();
  const migration = current.at(-1)!.slice(0, -4);
  if (process.env.OLDER_BUILD_COMMIT) return { migration, commit: git(["rev-parse", process.env.OLDER_BUILD_COMMIT]) };
  const commits = git(["rev-list", "--date-order", "HEAD"]).split("\n");
  // One git process for every commit's migrations folder, then one listing per distinct folder.
  const trees = execFileSync("git", ["cat-file", "--batch-check=%(objectname)"], {
    cwd: ROOT,
    encoding: "utf8",
    input: commits.map((commit) => `${commit}:server/db/migrations`).join("\n") + "\n",
  }).split("\n");
  const known = new Map<string, number>();
  const knownIn = (tree: string) => {
    if (!known.has(tree)) {
      const names = /^[0-9a-f]{40}$/.test(tree) ? git(["ls-tree", "--name-only", tree]).split("\n").filter(isMigration).sort() : [];
      const earlier = names.length < current.length && names.every((name, index) => current[index] === name);
      known.set(tree, earlier ? names.length : -1);
    }
    return known.get(tree)!;
  };
  let best = { commit: git(["rev-parse", "HEAD"]), knows: 0 };
  commits.forEach((commit, index) => {
    const knows = knownIn(trees[index]!);
    if (knows > best.knows) best = { commit, knows };
  });
  return { migration, commit: best.commit };
}

/**
 * Whether the build at `commit` reads the upgrade lines of the migrations (0023 on): a build from
 * before them refuses nothing, so going back to it is a restore (docs/operations.md).
 */
export function knowsUpgradeContract(commit: string): boolean {
  return spawnSync("git", ["grep", "-q", "works with builds from", commit, "--", "server/db/migrate.ts"], { cwd: ROOT }).status === 0;
}

/**
 * A clone at `commit`, built as `npm run build` builds it, with this checkout's packages (hard
 * links, when the lockfile is the same; `npm ci` otherwise). The build skips only the type check,
 * which the commit passed when it was made: the release is the same without it.
 */
export function olderBuild(commit: string): string {
  const tag = createHash("sha256").update(ROOT).digest("hex").slice(0, 8);
  const dir = join(tmpdir(), `dashboard-older-build-${tag}-${commit.slice(0, 12)}`);
  if (existsSync(join(dir, ".releases", "current", "release.json"))) return dir;
  rmSync(dir, { recursive: true, force: true });
  git(["clone", "--quiet", "--no-checkout", "--shared", ROOT, dir]);
  git(["checkout", "--quiet", commit], dir);
  const sameLock = readFileSync(join(dir, "package-lock.json"), "utf8") === readFileSync(join(ROOT, "package-lock.json"), "utf8");
  if (sameLock) execFileSync("cp", ["-al", join(ROOT, "node_modules"), join(dir, "node_modules")]);
  else execFileSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: dir, stdio: "ignore" });
  renameSync(join(dir, "next.config.ts"), join(dir, "next.config.commit.ts"));
  writeFileSync(
    join(dir, "next.config.ts"),
    `import config from "./next.config.commit";\n` +
      `export default { ...config, typescript: { ...config.typescript, ignoreBuildErrors: true },\n` +
      `  experimental: { ...config.experimental, turbopackFileSystemCacheForBuild: false } };\n`,
  );
  const build = spawnSync(process.execPath, ["scripts/build.mjs"], { cwd: dir, encoding: "utf8", env: childEnv({}) });
  if (build.status !== 0) throw new Error(`the build of ${commit} failed:\n${build.stdout}\n${build.stderr}`);
  return dir;
}
