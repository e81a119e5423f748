// Process liveness and PID-file locks, in one place for the server (the embedded database's DATA_DIR lock) and the scripts (the build lock,
// releases' staging folders). Plain JavaScript: the build scripts run it without a compiler. proper-lockfile would need a dependency and
// locks by a folder's age, not by a holder's pid.
import { linkSync, readFileSync, rmSync, writeFileSync } from "node:fs";

/** Whether a process runs: a zombie (exited, not yet reaped) does not. */
export function isRunning(pid) {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if (error.code !== "EPERM") return false;
  }
  try {
    return !/^\d+ \(.*\) Z /s.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return true;
  }
}

/** Creates `path` holding `content` atomically (a hard link of a written file, so never seen empty). False when `path` exists. */
export function createExclusive(path, content = String(process.pid)) {
  const draft = `${path}.${process.pid}.draft`;
  writeFileSync(draft, content);
  try {
    linkSync(draft, path);
    return true;
  } catch (error) {
    if (error.code === "EEXIST") return false;
    throw error;
  } finally {
    rmSync(draft, { force: true });
  }
}
