import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { openDatabase, type Db } from "@/server/db/database";
import { copyOfTemplate } from "./pglite-template";

/**
 * Where the storage suite runs: PGlite always, and PostgreSQL when TEST_DATABASE_URL names a
 * server (each location is a new database on it, dropped afterwards).
 */
export type Backend = "pglite" | "postgres";

export function storageBackends(): Backend[] {
  return process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];
}

/** A new, empty place to keep a database; `open` may be called again (restart) and, on PostgreSQL, concurrently. */
export interface Location {
  backend: Backend;
  /** The database's address, on PostgreSQL: for processes that open it themselves. */
  url?: string;
  /** The embedded database's folder, on PGlite: for processes that open it themselves. */
  dataDir?: string;
  open(): Promise<Db>;
  drop(): Promise<void>;
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** `blank`: a PGlite directory never initialized (slow: seconds); otherwise a copy of the migrated template. */
export async function newLocation(backend: Backend, options: { blank?: boolean } = {}): Promise<Location> {
  if (backend === "pglite") {
    const dataDir = options.blank ? await mkdtemp(join(tmpdir(), "dash-store-")) : copyOfTemplate();
    return { backend, dataDir, open: () => openDatabase({ dataDir }), drop: () => rm(dataDir, { recursive: true, force: true }) };
  }
  const base = new URL(process.env.TEST_DATABASE_URL!);
  const name = `${base.pathname.slice(1) || "dash"}_${randomBytes(4).toString("hex")}`.slice(0, 60);
  await adminQuery(`create database "${name}"`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    backend,
    url: url.toString(),
    open: () => openDatabase({ url: url.toString() }),
    drop: () => adminQuery(`drop database if exists "${name}" with (force)`),
  };
}

/** One opened database per backend for a test file, closed and dropped after it. */
export async function openForSuite(backend: Backend): Promise<{ db: Db; location: Location; close(): Promise<void> }> {
  const location = await newLocation(backend);
  const db = await location.open();
  return {
    db,
    location,
    close: async () => {
      try {
        await db.close();
      } finally {
        await location.drop();
      }
    },
  };
}

/** Unique per call: lets tests share one database without seeing each other's rows. */
export const unique = (prefix: string) => `${prefix}_${randomBytes(6).toString("hex")}`;

/** Every row of every table of the schema, as one JSON text: for checking what the database holds. */
export async function dumpAllTables(db: Db): Promise<string> {
  const tables = await db.query<{ name: string }>(
    "select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1",
  );
  const dump: Record<string, unknown[]> = {};
  for (const { name } of tables) dump[name] = await db.query(`select * from "${name}"`);
  return JSON.stringify(dump);
}
