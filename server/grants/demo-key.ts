import "server-only";
import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { settings } from "@/server/config/settings";
import { processSingleton } from "@/server/runtime/singleton";

/** The file in the data folder that keeps the demo's generated master key. */
export const DEMO_KEY_FILE = "delegation-key";

/** The demo's master key without DELEGATION_KEY, kept 0600 in the data folder so a restart keeps its grants (not in production). */
export function demoDelegationKey(): string | null {
  const { demo, database } = settings();
  if (!demo || database.dataDir.startsWith("memory://")) return null;
  const file = join(database.dataDir, DEMO_KEY_FILE);
  return processSingleton(`demoDelegationKey:${file}`, () => readOrCreate(database.dataDir, file));
}

function readOrCreate(dataDir: string, file: string): string {
  try {
    const kept = readFileSync(file, "utf8").trim();
    if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
    if (kept) return kept;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(32).toString("base64url");
  try {
    // "wx": a second process starting at the same moment keeps the first one's key.
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: "wx" });
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return readFileSync(file, "utf8").trim();
  }
}
