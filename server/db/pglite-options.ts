import "server-only";
import { fork } from "node:child_process";
import { existsSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { DataDirUnusable } from "@/server/db/data-dir-lock";

/** The embedded database kept small: PGlite's WebAssembly memory never shrinks, and these suit the few small tables. */
const SETTINGS = ["shared_buffers=8MB", "work_mem=2MB", "maintenance_work_mem=8MB", "temp_buffers=2MB", "max_connections=5"];

export const pgliteStartParams = () => [...PGlite.defaultStartParams, ...SETTINGS.flatMap((setting) => ["-c", setting])];

/** The script that runs initdb in a child process (copied into every release). */
const initdbScript = () => join(/* turbopackIgnore: true */ process.cwd(), "server", "db", "pglite-initdb.mjs");

/** A folder of another embedded database (the test runs keep theirs inside the default DATA_DIR): not a stranger. */
function isEmbeddedDatabase(path: string): boolean {
  return existsSync(join(path, "PG_VERSION")) || existsSync(join(path, "dashboard.lock"));
}

/** Makes a new data directory in a child process, so initdb's peak memory is freed; inside `dataDir`, which may be all the user owns. */
export async function initDataDirOutOfProcess(dataDir: string): Promise<void> {
  if (existsSync(join(dataDir, "PG_VERSION"))) return;
  const strangers = readdirSync(dataDir).filter(
    (name) => name !== "dashboard.lock" && !/^\.(write-test|initdb-)/.test(name) && !isEmbeddedDatabase(join(dataDir, name)),
  );
  if (strangers.length > 0) throw new DataDirUnusable(dataDir, `it holds files (${strangers.slice(0, 3).join(", ")}) but no database`);
  // What an init killed midway left is started over.
  for (const name of readdirSync(dataDir).filter((entry) => entry.startsWith(".initdb-")))
    rmSync(join(dataDir, name), { recursive: true, force: true });
  const staging = join(dataDir, `.initdb-${process.pid}`);
  await new Promise<void>((resolve, reject) => {
    const child = fork(initdbScript(), [staging, JSON.stringify(SETTINGS)], { execArgv: ["--liftoff-only"], stdio: "ignore" });
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`initdb exited with code ${code}`))));
  });
  for (const name of readdirSync(staging)) renameSync(join(staging, name), join(dataDir, name));
  rmSync(staging, { recursive: true, force: true });
}
