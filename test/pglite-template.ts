import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inject } from "vitest";

/** A fresh PGlite data directory, copied from the migrated template the global setup built. */
export function copyOfTemplate(): string {
  const dir = mkdtempSync(join(tmpdir(), "dash-store-"));
  cpSync(inject("pgliteTemplate"), dir, { recursive: true });
  return dir;
}
