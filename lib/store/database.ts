import "server-only";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { migrate } from "./migrate";

/**
 * The dashboard's durable state: PostgreSQL when DATABASE_URL is set, otherwise an embedded
 * PGlite in DATA_DIR. Both speak `query(text, params)` with the same SQL, so the layer above
 * is plain parameterized SQL with a row type next to each query; no ORM sits in between.
 */
export interface Db {
  readonly kind: "postgres" | "pglite";
  /** One statement, `$1`-style parameters; rows come back with the column names the SQL gives them. */
  query<R>(sql: string, params?: unknown[]): Promise<R[]>;
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. Nested calls join the outer one. */
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  /** Several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}

// Process-wide: the server is bundled into several chunks, each with its own copy of this class, and the
// database handle (on globalThis) throws the copy of whichever chunk opened it.
const UNAVAILABLE = Symbol.for("dashboard.databaseUnavailable");

/** The database cannot be reached (stopped, restarting, network gone, or closed): a 503, never a crash. */
export class DatabaseUnavailable extends Error {
  /** `instanceof` holds for an instance of any copy of the class. */
  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && UNAVAILABLE in value;
  }
  readonly [UNAVAILABLE] = true;
  readonly status = 503;
  readonly code = "database_unavailable";
  constructor(options?: { cause?: unknown }) {
    super("The dashboard's database is unavailable.", options);
    this.name = "DatabaseUnavailable";
  }
}

const CONNECTION_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENOTFOUND", "EAI_AGAIN", "EPIPE", "EHOSTUNREACH"]);
// admin_shutdown, crash_shutdown, cannot_connect_now, and the whole connection-exception class 08.
const CONNECTION_SQLSTATES = /^(57P01|57P02|57P03|08...)$/;
const CONNECTION_MESSAGES =
  /connection terminated|connection timeout|timeout exceeded when trying to connect|not queryable|pglite is closed|cannot use a pool after calling end/i;

function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && (CONNECTION_CODES.has(code) || CONNECTION_SQLSTATES.test(code))) return true;
  if (error instanceof AggregateError) return error.errors.some(isConnectionError);
  return CONNECTION_MESSAGES.test(error.message);
}

/** Connection failures become DatabaseUnavailable; SQL errors (constraints, syntax) pass through. */
async function guarded<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw isConnectionError(error) && !(error instanceof DatabaseUnavailable) ? new DatabaseUnavailable({ cause: error }) : error;
  }
}

type Queryable = { query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }> };

function postgresDb(url: string): Db {
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5_000, idleTimeoutMillis: 30_000 });
  // An idle client losing its server (PostgreSQL restarting) must not crash the process; the pool replaces it.
  pool.on("error", () => {});
  let ended = false;

  const on = (client: Queryable, inTransaction: boolean): Db => ({
    kind: "postgres",
    query: <R>(sql: string, params?: unknown[]) => guarded(async () => (await client.query(sql, params)).rows as R[]),
    exec: (sql) => guarded(async () => void (await client.query(sql))),
    transaction: inTransaction ? (fn) => fn(on(client, true)) : transaction,
    close: async () => {
      if (ended) return;
      ended = true;
      await pool.end();
    },
  });

  async function transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
    const client = await guarded(() => pool.connect());
    let broken: Error | undefined;
    try {
      await guarded(() => client.query("begin"));
      const result = await fn(on(client, true));
      await guarded(() => client.query("commit"));
      return result;
    } catch (error) {
      if (error instanceof DatabaseUnavailable) broken = error;
      else await client.query("rollback").catch((rollbackError: Error) => (broken = rollbackError));
      throw error;
    } finally {
      // A client whose connection failed is destroyed instead of going back to the pool.
      client.release(broken);
    }
  }

  return on(pool, false);
}

async function pgliteDb(dataDir: string): Promise<Db> {
  if (!dataDir.startsWith("memory://")) mkdirSync(dataDir, { recursive: true });
  const lite = await PGlite.create(dataDir);
  let closed = false;
  type Target = { query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }>; exec(sql: string): Promise<unknown> };
  const ensureOpen = () => {
    if (closed) throw new DatabaseUnavailable();
  };
  // PGlite runs one statement at a time; a plain query waits for any open transaction to end.
  const on = (target: Target, inTransaction: boolean): Db => ({
    kind: "pglite",
    query: <R>(sql: string, params?: unknown[]) => guarded(async () => (ensureOpen(), (await target.query(sql, params)).rows as R[])),
    exec: (sql) => guarded(async () => void (ensureOpen(), await target.exec(sql))),
    transaction: inTransaction
      ? (fn) => fn(on(target, true))
      : (fn) => guarded(() => (ensureOpen(), lite.transaction((tx) => fn(on(tx, true))))),
    close: async () => {
      if (closed) return;
      closed = true;
      await lite.close();
    },
  });
  return on(lite, false);
}

/** The project folder's `.data/`, unless DATA_DIR says otherwise. */
function defaultDataDir(): string {
  return process.env.DATA_DIR || join(process.cwd(), ".data");
}

/** Opens PostgreSQL (`url`) or PGlite (`dataDir`) and brings the schema up to date. */
export async function openDatabase(options: { url?: string; dataDir?: string } = {}): Promise<Db> {
  const db = options.url ? postgresDb(options.url) : await pgliteDb(options.dataDir ?? defaultDataDir());
  try {
    await migrate(db);
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  }
  return db;
}

// On globalThis so that bundling the server into several chunks still shares one handle per process.
const processGlobal = globalThis as typeof globalThis & { __dashboardDatabase?: Promise<Db> };

/**
 * The process's database, from DATABASE_URL or DATA_DIR, opened on first use. A failed open
 * is forgotten, so the next call tries again (the database may come back).
 */
export function database(): Promise<Db> {
  processGlobal.__dashboardDatabase ??= openDatabase({ url: process.env.DATABASE_URL || undefined }).catch((error: unknown) => {
    processGlobal.__dashboardDatabase = undefined;
    throw error instanceof DatabaseUnavailable || !isConnectionError(error) ? error : new DatabaseUnavailable({ cause: error });
  });
  return processGlobal.__dashboardDatabase;
}

/** Closes the process's database (graceful stop, end of a test file); the next `database()` opens it again. */
export async function closeDatabase(): Promise<void> {
  const open = processGlobal.__dashboardDatabase;
  processGlobal.__dashboardDatabase = undefined;
  if (open) await (await open.catch(() => null))?.close();
}

/** A cheap round trip for health checks: resolves, or throws DatabaseUnavailable. */
export async function pingDatabase(): Promise<void> {
  await (await database()).query("select 1");
}
