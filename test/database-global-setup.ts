import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "@/server/db/database";
import { migrationsDir } from "@/server/db/migrate";

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

/**
 * A new PGlite data directory takes seconds to initialize; the suite copies one migrated
 * template instead, built once per PGlite release and schema. Also says once per run whether the storage
 * suite ran against a real PostgreSQL.
 */
export default async function setup(project: TestProject): Promise<void> {
  if (!process.env.TEST_DATABASE_URL)
    console.info(
      "PostgreSQL was not tested: set TEST_DATABASE_URL to run the storage suite and the two-instance tests (scripts/instances.test.ts) against it.",
    );
  // Keyed by the PGlite release (its data format) and the migrations.
  const schema = createHash("sha256").update(readFileSync(join(process.cwd(), "node_modules/@electric-sql/pglite/package.json")));
  for (const name of readdirSync(migrationsDir()).sort()) schema.update(name).update(readFileSync(join(migrationsDir(), name)));
  // Shared by concurrent runs (other checkouts too): built aside, then moved in place unless another run won.
  const template = join(tmpdir(), `dash-pglite-template-${schema.digest("hex").slice(0, 16)}`);
  if (!existsSync(template)) {
    const building = `${template}.${process.pid}`;
    const db = await openDatabase({ dataDir: building });
    await db.close();
    try {
      renameSync(building, template);
    } catch {
      rmSync(building, { recursive: true, force: true });
    }
  }
  project.provide("pgliteTemplate", template);
}
