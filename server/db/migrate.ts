import "server-only";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Db } from "./database";

/** Any constant: every instance takes the same transaction-scoped lock while it migrates. */
const MIGRATION_LOCK = 7_310_421_118;

/** The SQL files, read from the project folder (the server always runs from it; Next.js does not bundle them). */
export function migrationsDir(): string {
  return join(process.cwd(), "server", "db", "migrations");
}

function migrationFiles(): { version: string; sql: string }[] {
  const dir = migrationsDir();
  return readdirSync(dir)
    .filter((name) => /^\d{4}_[a-z0-9_]+\.sql$/.test(name))
    .sort()
    .map((name) => ({ version: name.slice(0, -4), sql: readFileSync(join(dir, name), "utf8") }));
}

/**
 * Applies the migrations not yet applied, in order, in one transaction holding an advisory
 * lock: two instances starting at once take turns, and the second finds nothing left to do.
 */
export async function migrate(db: Db): Promise<string[]> {
  const files = migrationFiles();
  return db.transaction(async (tx) => {
    await tx.query("select pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await tx.exec("create table if not exists schema_migrations (version text primary key, applied_at timestamptz not null default now())");
    type Row = { version: string };
    const applied = new Set((await tx.query<Row>("select version from schema_migrations")).map((row) => row.version));
    const pending = files.filter((file) => !applied.has(file.version));
    for (const file of pending) {
      await tx.exec(file.sql);
      await tx.query("insert into schema_migrations (version) values ($1)", [file.version]);
    }
    return pending.map((file) => file.version);
  });
}

/** Every migration this build holds, oldest first. */
export function migrationVersions(): string[] {
  return migrationFiles().map((file) => file.version);
}

/** The migrations this build holds that the database has not applied, oldest first. */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const [table] = await db.query<{ name: string | null }>("select to_regclass('schema_migrations')::text as name");
  const applied = table?.name
    ? new Set((await db.query<{ version: string }>("select version from schema_migrations")).map((row) => row.version))
    : new Set();
  return migrationFiles()
    .map((file) => file.version)
    .filter((version) => !applied.has(version));
}

/** The newest migration the database has applied ("" before the first). */
export async function newestAppliedMigration(db: Db): Promise<string> {
  const [row] = await db.query<{ version: string | null }>("select max(version) as version from schema_migrations");
  return row?.version ?? "";
}
