import "server-only";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Db } from "@/server/db/database";

/** Any constant: every instance takes the same transaction-scoped lock while it migrates. */
const MIGRATION_LOCK = 7_310_421_118;

/** The SQL files, read from the project folder (the server always runs from it; Next.js does not bundle them). */
export function migrationsDir(): string {
  return join(process.cwd(), "server", "db", "migrations");
}

/** A migration's first line: `-- Upgrade: expand` (older builds still work) or `-- Upgrade: contract, works with builds from NNNN_…`. */
const UPGRADE_LINE = /^-- Upgrade: (?:(expand)|contract, works with builds from (\d{4}_[a-z0-9_]+))\s*$/m;

interface Migration {
  version: string;
  sql: string;
  /** The oldest build (named by the newest migration it knows) that works with this one applied. */
  oldestBuild: string;
  /** Whether its file says so; migrations from before the rule say nothing, and only their own build is assumed to work. */
  declared: boolean;
}

/** Every migration this build holds, oldest first, with the oldest build each keeps working. */
export function migrationFiles(): Migration[] {
  const dir = migrationsDir();
  const files = readdirSync(dir)
    .filter((name) => /^\d{4}_[a-z0-9_]+\.sql$/.test(name))
    .sort();
  const migrations: Migration[] = [];
  for (const name of files) {
    const version = name.slice(0, -4);
    const sql = readFileSync(join(dir, name), "utf8");
    const [, expand, from] = UPGRADE_LINE.exec(sql.split("\n", 1)[0] ?? "") ?? [];
    // An expansion keeps every build its predecessor kept working.
    const oldestBuild = expand ? (migrations.at(-1)?.oldestBuild ?? version) : (from ?? version);
    migrations.push({ version, sql, oldestBuild, declared: Boolean(expand ?? from) });
  }
  return migrations;
}

/** The database holds a migration this build does not know and that does not say this build keeps working. */
export class DatabaseAhead extends Error {
  constructor(applied: string, known: string) {
    super(
      `the database is at ${applied}, this build knows up to ${known}: start the newer build, or restore the backup taken before migrating`,
    );
    this.name = "DatabaseAhead";
  }
}

type Applied = { version: string; oldestBuild: string | null };

/** What the database has applied, with what each migration said about older builds (nothing before migration 0027 recorded it). */
async function appliedMigrations(db: Db): Promise<Applied[]> {
  const [table] = await db.query<{ name: string | null }>("select to_regclass('schema_migrations')::text as name");
  if (!table?.name) return [];
  return db.query<Applied>(`select version, to_jsonb(m) ->> 'oldest_build' as "oldestBuild" from schema_migrations m order by version`);
}

/** Why this build cannot work on the database (an unknown migration that does not accept this build); null when none. */
export async function newerMigrationProblem(db: Db): Promise<DatabaseAhead | null> {
  const known = new Set(migrationFiles().map((file) => file.version));
  const applied = await appliedMigrations(db);
  const breaking = applied.filter((row) => !known.has(row.version) && !(row.oldestBuild && known.has(row.oldestBuild)));
  return breaking.length > 0 ? new DatabaseAhead(applied.at(-1)!.version, [...known].at(-1) ?? "(none)") : null;
}

/** Applies pending migrations in one transaction under an advisory lock (instances take turns); refuses if the database is ahead. */
export async function migrate(db: Db): Promise<string[]> {
  const files = migrationFiles();
  return db.transaction(async (tx) => {
    await tx.query("select pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await tx.exec("create table if not exists schema_migrations (version text primary key, applied_at timestamptz not null default now())");
    const ahead = await newerMigrationProblem(tx);
    if (ahead) throw ahead;
    const applied = new Set((await appliedMigrations(tx)).map((row) => row.version));
    const pending = files.filter((file) => !applied.has(file.version));
    for (const file of pending) {
      await tx.exec(file.sql);
      await tx.query("insert into schema_migrations (version) values ($1)", [file.version]);
    }
    // Recorded once the column exists (migration 0027 adds it), for the builds that come after.
    for (const file of pending.filter((candidate) => candidate.declared))
      await tx.query("update schema_migrations set oldest_build = $2 where version = $1", [file.version, file.oldestBuild]);
    return pending.map((file) => file.version);
  });
}

/** Every migration this build holds, oldest first. */
export function migrationVersions(): string[] {
  return migrationFiles().map((file) => file.version);
}

/** The migrations this build holds that the database has not applied, oldest first. */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const applied = new Set((await appliedMigrations(db)).map((row) => row.version));
  return migrationVersions().filter((version) => !applied.has(version));
}

/** The newest migration the database has applied ("" before the first). */
export async function newestAppliedMigration(db: Db): Promise<string> {
  const [row] = await db.query<{ version: string | null }>("select max(version) as version from schema_migrations");
  return row?.version ?? "";
}
