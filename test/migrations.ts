import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase, type Db } from "@/server/db/database";
import { migrationsDir } from "@/server/db/migrate";
import { newLocation } from "./databases";

/** Applies one migration file and records it, as `migrate` would. */
export async function applyMigration(db: Db, name: string): Promise<void> {
  await db.exec(await readFile(join(migrationsDir(), name), "utf8"));
  await db.query("insert into schema_migrations (version) values ($1)", [name.slice(0, -4)]);
}

/**
 * A new database with every migration before `version` applied and none after: for a migration's
 * contract test, which writes rows as the schema stood before it, then applies it.
 */
export async function openBefore(backend: "pglite" | "postgres", version: string): Promise<{ db: Db; drop: () => Promise<void> }> {
  let db: Db;
  let drop: () => Promise<void>;
  if (backend === "pglite") {
    const dataDir = await mkdtemp(join(tmpdir(), `dash-before-${version}-`));
    db = await openDatabase({ dataDir, migrate: false });
    drop = () => rm(dataDir, { recursive: true, force: true });
  } else {
    const location = await newLocation("postgres", { blank: true });
    db = await openDatabase({ url: location.url!, migrate: false });
    drop = location.drop;
  }
  await db.exec("create table schema_migrations (version text primary key, applied_at timestamptz not null default now())");
  const names = (await readdir(migrationsDir())).filter((file) => /^\d{4}_.*\.sql$/.test(file) && file < version).sort();
  for (const name of names) await applyMigration(db, name);
  return { db, drop };
}
