import "server-only";
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { hostname } from "node:os";
import { dirname, join } from "node:path";
import { createExclusive, isRunning } from "@/server/runtime/pid-file.mjs";

/** One process per DATA_DIR (two would overwrite each other): a lock file names its pid; a dead or stale holder's lock is taken over. */
const LOCK_FILE = "dashboard.lock";
const HEARTBEAT_MS = 10_000;
const STALE_AFTER_MS = 30_000;

interface Holder {
  pid: number;
  host: string;
  nonce: string;
}

/** The data directory is held by another live process. */
export class DataDirInUse extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: Holder,
  ) {
    super(
      `DATA_DIR ${dataDir} is in use by process ${holder.pid}${holder.host === hostname() ? "" : ` on ${holder.host}`}: ` +
        "the embedded database serves one process. Stop that process, give this one another DATA_DIR, or use DATABASE_URL for several instances.",
    );
    this.name = "DataDirInUse";
  }
}

/** DATA_DIR cannot hold a database: not a directory, not writable, or not creatable. */
/** The one folder the server writes: said when the user running it cannot write where it points. */
const WRITABLE_HINT = "; set DATA_DIR to a folder this user can write (the only folder the server writes), or use DATABASE_URL";

export class DataDirUnusable extends Error {
  constructor(dataDir: string, reason: string, options?: { cause?: unknown }) {
    super(`DATA_DIR ${dataDir} cannot hold the embedded database: ${reason}.`, options);
    this.name = "DataDirUnusable";
  }
}

const heldHere = new Set<string>();

function readHolder(path: string): { holder?: Holder; ageMs: number } | undefined {
  try {
    const ageMs = Date.now() - statSync(path).mtimeMs;
    const parsed = JSON.parse(readFileSync(path, "utf8")) as Partial<Holder>;
    const holder = typeof parsed.pid === "number" && typeof parsed.host === "string" ? (parsed as Holder) : undefined;
    return { holder, ageMs };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    return { ageMs: Number.POSITIVE_INFINITY };
  }
}

function isStale(read: { holder?: Holder; ageMs: number }): boolean {
  if (!read.holder) return read.ageMs > 2_000;
  if (read.ageMs > STALE_AFTER_MS) return true;
  return read.holder.host === hostname() && read.holder.pid !== process.pid && !isRunning(read.holder.pid);
}

/** `mkdir -p` one level at a time: Node's recursive mkdir never returns for some paths (under /proc it spins a core). */
function makeDirectory(path: string): void {
  try {
    mkdirSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return;
    const parent = dirname(path);
    if (code !== "ENOENT" || parent === path || existsSync(parent)) throw error;
    makeDirectory(parent);
    mkdirSync(path);
  }
}

/** Makes sure `dataDir` is a directory this process can write, before the database engine touches it. */
export function checkDataDir(dataDir: string): void {
  try {
    makeDirectory(dataDir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === "EEXIST" || code === "ENOTDIR"
        ? "a file stands in its path"
        : `it cannot be created (${code ?? String(error)})${WRITABLE_HINT}`;
    throw new DataDirUnusable(dataDir, reason, { cause: error });
  }
  let isDirectory = false;
  try {
    isDirectory = statSync(dataDir).isDirectory();
  } catch (error) {
    throw new DataDirUnusable(dataDir, `it cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`, { cause: error });
  }
  if (!isDirectory) throw new DataDirUnusable(dataDir, "it is a file, not a directory");
  const probe = join(dataDir, `.write-test-${process.pid}-${randomBytes(4).toString("hex")}`);
  try {
    writeFileSync(probe, "ok");
    rmSync(probe, { force: true });
  } catch (error) {
    throw new DataDirUnusable(
      dataDir,
      `this process cannot write in it (${(error as NodeJS.ErrnoException).code ?? String(error)})${WRITABLE_HINT}`,
      {
        cause: error,
      },
    );
  }
}

/** Folders 0700, files 0600 (the database holds secrets); PGlite writes new files 0666, so each open fixes them, true when it had to. */
export function keepPrivate(dataDir: string): boolean {
  let changed = false;
  const visit = (path: string) => {
    const stat = statSync(path);
    if ((stat.mode & 0o077) !== 0) {
      try {
        chmodSync(path, stat.isDirectory() ? 0o700 : 0o600);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? String(error);
        throw new DataDirUnusable(dataDir, `${path} is readable by others and this user cannot make it private (${code})`, {
          cause: error,
        });
      }
      changed = true;
    }
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(dataDir);
  return changed;
}

/** Takes the lock of `dataDir` (a directory that exists); returns its release. Throws DataDirInUse. */
export function lockDataDir(dataDir: string): () => void {
  const path = join(dataDir, LOCK_FILE);
  if (heldHere.has(path)) throw new DataDirInUse(dataDir, { pid: process.pid, host: hostname(), nonce: "" });
  const mine: Holder = { pid: process.pid, host: hostname(), nonce: randomBytes(8).toString("hex") };
  for (let attempt = 0; ; attempt++) {
    let created: boolean;
    try {
      created = createExclusive(path, JSON.stringify(mine));
    } catch (error) {
      throw new DataDirUnusable(dataDir, `its lock file cannot be written`, { cause: error });
    }
    if (created) break;
    const read = readHolder(path);
    if (read && !isStale(read)) throw new DataDirInUse(dataDir, read.holder ?? { pid: 0, host: "unknown", nonce: "" });
    if (attempt >= 3) throw new DataDirInUse(dataDir, read?.holder ?? { pid: 0, host: "unknown", nonce: "" });
    // Taken over only if it is still the stale lock just read (another process may be taking it over too).
    const again = readHolder(path);
    if (again?.holder?.nonce === read?.holder?.nonce) rmSync(path, { force: true });
  }
  heldHere.add(path);
  const heartbeat = setInterval(() => {
    const now = new Date();
    try {
      utimesSync(path, now, now);
    } catch {
      // Gone (the directory was removed): nothing to keep fresh.
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();
  return () => {
    clearInterval(heartbeat);
    heldHere.delete(path);
    try {
      if ((JSON.parse(readFileSync(path, "utf8")) as Holder).nonce === mine.nonce) unlinkSync(path);
    } catch {
      // Already gone.
    }
  };
}
