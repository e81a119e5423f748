import "server-only";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { isMainThread } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { checkDataDir, DataDirUnusable, keepPrivate, lockDataDir } from "@/server/db/data-dir-lock";
import { logger } from "@/server/observability/log";
import { settings } from "@/server/config/settings";
import { migrate } from "@/server/db/migrate";
import { listenOnPostgres } from "@/server/db/listen";
import { applicationDb } from "@/server/db/reach";
import { initDataDirOutOfProcess, pgliteStartParams } from "@/server/db/pglite-options";

/** The dashboard's durable state: PostgreSQL (DATABASE_URL) or embedded PGlite (DATA_DIR), both plain parameterized SQL; no ORM. */
export interface Db {
  readonly kind: "postgres" | "pglite";
  /** Set on the handle a transaction hands its function: what runs on it joins that transaction. */
  readonly inTransaction?: boolean;
  /** One statement, `$1`-style parameters; rows come back with the column names the SQL gives them. */
  query<R>(sql: string, params?: unknown[]): Promise<R[]>;
  /** Runs `fn` in one transaction (nested calls join it); `setup` (no parameters) runs first, on PostgreSQL in `begin`'s round trip. */
  transaction<T>(fn: (tx: Db) => Promise<T>, setup?: string): Promise<T>;
  /** Several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /** Calls `onNotify` per notification on `channel`, and `onListening` each time it (re)starts listening: what came meanwhile is lost. */
  listen(channel: string, onNotify: (payload: string) => void, onListening: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /** The connection pool's state (PostgreSQL): for the metrics. */
  poolStats?(): { total: number; idle: number; waiting: number };
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
// query_canceled (the statement timeout), admin_shutdown, crash_shutdown, cannot_connect_now,
// idle_in_transaction_session_timeout, and the whole connection-exception class 08.
const CONNECTION_SQLSTATES = /^(57014|57P01|57P02|57P03|25P03|08...)$/;
const CONNECTION_MESSAGES =
  /connection terminated|connection timeout|timeout exceeded when trying to connect|query read timeout|not queryable|pglite is closed|cannot use a pool after calling end/i;

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

/**
 * A transaction's connection runs one statement at a time: statements sent together (a
 * `Promise.all` inside a transaction) wait their turn here, as pg 9 refuses a query sent while
 * another is running (pg 8 warns: test/database-setup.ts fails a test that does).
 */
function oneAtATime(client: Queryable): Queryable {
  let last: Promise<unknown> = Promise.resolve();
  return {
    query: (sql, params) => {
      const next = last.then(() => client.query(sql, params));
      last = next.catch(() => {});
      return next;
    },
  };
}

/** How the dashboard talks to PostgreSQL; every bound is a setting (docs/configuration.md). */
interface PoolOptions {
  poolSize: number;
  connectTimeoutMs: number;
  /** The longest a statement may run; the server cancels it, and the client gives up a second later. */
  statementTimeoutMs: number;
}

const DEFAULT_POOL: PoolOptions = { poolSize: 10, connectTimeoutMs: 5_000, statementTimeoutMs: 5_000 };

function postgresDb(url: string, options: PoolOptions): Db {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize,
    connectionTimeoutMillis: options.connectTimeoutMs,
    idleTimeoutMillis: 30_000,
    // A silent partition (no reset, no bytes) is noticed: by the keepalive probes on idle
    // connections, and by the client's own read timeout on a query waiting for an answer.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    statement_timeout: options.statementTimeoutMs,
    query_timeout: options.statementTimeoutMs + 1_000,
    idle_in_transaction_session_timeout: options.statementTimeoutMs * 2,
    application_name: "store-analytics-dashboard",
  });
  // An idle client losing its server (PostgreSQL restarting) must not crash the process; the pool replaces it.
  pool.on("error", () => {});
  let ended = false;

  const on = (pooled: Queryable, inTransaction: boolean): Db => {
    const client = inTransaction ? oneAtATime(pooled) : pooled;
    return {
      kind: "postgres",
      inTransaction,
      query: <R>(sql: string, params?: unknown[]) => guarded(async () => (await client.query(sql, params)).rows as R[]),
      exec: (sql) => guarded(async () => void (await client.query(sql))),
      listen: async (channel, onNotify, onListening) => listenOnPostgres(url, channel, onNotify, onListening),
      transaction: inTransaction
        ? async (fn, setup) => {
            if (setup) await guarded(() => client.query(setup));
            return fn(on(client, true));
          }
        : transaction,
      close: async () => {
        if (ended) return;
        ended = true;
        await pool.end();
      },
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    };
  };

  async function transaction<T>(fn: (tx: Db) => Promise<T>, setup?: string): Promise<T> {
    const client = await guarded(() => pool.connect());
    let broken: Error | undefined;
    try {
      // One simple query holding several statements: one round trip, run in order, inside the block `begin` opens.
      await guarded(() => client.query(setup ? `begin; ${setup}` : "begin"));
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
  let release = () => {};
  const onDisk = !dataDir.startsWith("memory://");
  // What the engine creates from now on is the process's alone.
  if (onDisk && isMainThread) process.umask(0o077);
  if (onDisk) {
    checkDataDir(dataDir);
    release = lockDataDir(dataDir);
  }
  let lite: PGlite;
  try {
    if (onDisk) {
      const exposed = existsSync(join(dataDir, "PG_VERSION")) && keepPrivate(dataDir);
      if (exposed) logger.warn({ dataDir }, `DATA_DIR ${dataDir} was readable by others: it is now private (folders 0700, files 0600).`);
      await initDataDirOutOfProcess(dataDir);
    }
    lite = await PGlite.create({ dataDir, startParams: pgliteStartParams() });
    // What initdb wrote, and the relation cache files the engine writes at its start, whatever the umask.
    if (onDisk) keepPrivate(dataDir);
  } catch (error) {
    if (error instanceof DataDirUnusable) {
      release();
      throw error;
    }
    release();
    const reason = error instanceof Error && error.message ? error.message : String(error);
    throw new DataDirUnusable(dataDir, `its files cannot be opened (damaged, or written by another PGlite release): ${reason}`, {
      cause: error,
    });
  }
  let closed = false;
  type Target = { query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }>; exec(sql: string): Promise<unknown> };
  const ensureOpen = () => {
    if (closed) throw new DatabaseUnavailable();
  };
  // PGlite runs one statement at a time; a plain query waits for any open transaction to end.
  const on = (target: Target, inTransaction: boolean): Db => ({
    kind: "pglite",
    inTransaction,
    query: <R>(sql: string, params?: unknown[]) => guarded(async () => (ensureOpen(), (await target.query(sql, params)).rows as R[])),
    exec: (sql) => guarded(async () => void (ensureOpen(), await target.exec(sql))),
    listen: async (channel, onNotify, onListening) => {
      const unlisten = await lite.listen(channel, onNotify);
      onListening();
      return async () => void (closed || (await unlisten()));
    },
    transaction: inTransaction
      ? async (fn, setup) => {
          if (setup) await guarded(async () => (ensureOpen(), await target.exec(setup)));
          return fn(on(target, true));
        }
      : (fn, setup) =>
          guarded(
            () => (
              ensureOpen(),
              lite.transaction(async (tx) => {
                if (setup) await tx.exec(setup);
                return fn(on(tx, true));
              })
            ),
          ),
    close: async () => {
      if (closed) return;
      closed = true;
      try {
        await lite.close();
      } finally {
        release();
      }
    },
  });
  return on(lite, false);
}

/** Opens PostgreSQL (`url`) or PGlite (`dataDir`) and brings the schema up to date (unless `migrate` is false). */
export async function openDatabase(options: { url?: string; dataDir?: string; pool?: PoolOptions; migrate?: boolean }): Promise<Db> {
  // Not a file of the build: without the hint, the bundler would trace (and copy) the whole project for it.
  const dataDir = options.url ? undefined : resolve(/* turbopackIgnore: true */ options.dataDir ?? ".data");
  const db = dataDir ? await pgliteDb(dataDir) : postgresDb(options.url!, options.pool ?? DEFAULT_POOL);
  try {
    if (options.migrate !== false) await migrate(db);
    // Migrations change the catalog: the engine writes its relation cache files again.
    if (dataDir) keepPrivate(dataDir);
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  }
  return db;
}

// On globalThis so that bundling the server into several chunks still shares one handle per process.
const processGlobal = globalThis as typeof globalThis & { __dashboardDatabase?: Promise<Db> };

/** The process's database, opened and migrated on first use, each query as dashboard_app in its work's reach; a failed open is retried. */
export function database(): Promise<Db> {
  const { url, dataDir, poolSize, connectTimeoutMs, statementTimeoutMs } = settings().database;
  processGlobal.__dashboardDatabase ??= openDatabase({ url, dataDir, pool: { poolSize, connectTimeoutMs, statementTimeoutMs } })
    .then(applicationDb)
    .catch((error: unknown) => {
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

/** A cheap round trip for health checks: resolves, or throws DatabaseUnavailable once `timeoutMs` has passed. */
export async function pingDatabase(timeoutMs = 2_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DatabaseUnavailable({ cause: new Error(`no answer within ${timeoutMs} ms`) })), timeoutMs);
  });
  try {
    await Promise.race([database().then((db) => db.query("select 1")), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
