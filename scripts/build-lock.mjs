// The build lock: one build at a time per checkout. The lock is a file created exclusively (a
// hard link of a file already holding our pid, so it is never seen empty). A lock whose process
// has died is taken over by exactly one waiter: it must first create the takeover mark named after
// the dead pid, and only the holder of that mark removes a lock naming that pid.
import { createHash } from "node:crypto";
import { readFileSync, rmSync, statSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createExclusive, isRunning } from "../server/runtime/pid-file.mjs";

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

export const buildLockPath = (root) =>
  join(tmpdir(), `dashboard-build-${createHash("sha256").update(root).digest("hex").slice(0, 16)}.lock`);

const ownerOf = (path) => {
  try {
    return Number(readFileSync(path, "utf8"));
  } catch {
    return null;
  }
};

/** Removes the lock of a dead process, unless another waiter is already doing so. */
function takeOver(lock, deadPid) {
  const mark = `${lock}.takeover-${deadPid}`;
  if (!createExclusive(mark)) {
    // A waiter that died mid-takeover leaves its mark; after a minute it is cleared.
    const markOwner = ownerOf(mark);
    if (markOwner !== null && !isRunning(markOwner) && Date.now() - statSync(mark, { throwIfNoEntry: false })?.mtimeMs > 60_000)
      rmSync(mark, { force: true });
    return;
  }
  try {
    // Holding the mark, only we may remove a lock naming deadPid: check it still does.
    if (ownerOf(lock) === deadPid) unlinkSync(lock);
  } finally {
    rmSync(mark, { force: true });
  }
}

/**
 * Runs `run` holding the build lock of `root`. Another build waits (up to `waitMs`, then this
 * throws naming the holder); a lock left by a process that died is taken over.
 */
export async function withBuildLock(root, run, { waitMs = 15 * 60_000, lock = buildLockPath(root) } = {}) {
  for (const started = Date.now(); !createExclusive(lock);) {
    const owner = ownerOf(lock);
    if (owner !== null && Number.isInteger(owner) && !isRunning(owner)) {
      takeOver(lock, owner);
      continue;
    }
    if (Date.now() - started > waitMs) throw new Error(`another build (process ${owner}) holds ${lock}`);
    sleep(200);
  }
  try {
    return await run();
  } finally {
    if (ownerOf(lock) === process.pid) rmSync(lock, { force: true });
  }
}
