import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import pg from "pg";
import { processSingleton } from "@/server/runtime/singleton";
import type { Db } from "@/server/db/database";

/**
 * Row-level security from the application's side (migration 0011). A store table shows, takes and deletes only rows of the stores in the
 * transaction's reach, and only to the role `dashboard_app`; the few deliberate cross-store paths run as `dashboard_maintenance`. The owner
 * (who migrates) runs no query of the application: a query that forgets its filter, or forgets its reach, reads nothing.
 */
const APP_ROLE = "dashboard_app";
const MAINTENANCE_ROLE = "dashboard_maintenance";

/**
 * How the queries of a piece of work are scoped: the stores of a reach (and the session whose
 * key ring rows it may touch), or across stores for a named reason.
 */
type Binding = { storeUrls: readonly string[]; sessionId?: string } | { acrossStores: string };

const bindings = processSingleton("reachBindings", () => new AsyncLocalStorage<Binding>());

const OWNER = Symbol.for("dashboard.ownerDb");
type AppDb = Db & { [OWNER]: Db };

/**
 * The owner's handle behind an application handle (or the handle itself): the migrations' ledger and the database's own secrets, which
 * neither role may touch (migration 0025). It reads no store's rows (row-level security is forced on every store table).
 */
export function ownerOf(db: Db): Db {
  return (db as Partial<AppDb>)[OWNER] ?? db;
}

/**
 * The statements that bind a transaction, without parameters so that they travel with its `begin` (one round trip instead of three on every
 * query of the application). The values are quoted as PostgreSQL literals by the driver's own escaping.
 */
function bindingSql(binding: Binding): string {
  if ("acrossStores" in binding)
    return `set local role ${MAINTENANCE_ROLE}; select set_config('dashboard.purpose', ${pg.escapeLiteral(binding.acrossStores)}, true)`;
  // A store is never '': rows no store owns are kept there, and no reach may name it.
  if (binding.storeUrls.some((url) => url === "")) throw new Error("A reach cannot hold an empty store URL.");
  const session = binding.sessionId ? `; select set_config('dashboard.session', ${pg.escapeLiteral(binding.sessionId)}, true)` : "";
  return `set local role ${APP_ROLE}; select set_config('dashboard.reach', ${pg.escapeLiteral(JSON.stringify(binding.storeUrls))}, true)${session}`;
}

async function bound<T>(db: Db, binding: Binding, fn: (tx: Db) => Promise<T>, setup?: string): Promise<T> {
  const sql = bindingSql(binding);
  return ownerOf(db).transaction(fn, setup ? `${sql}; ${setup}` : sql);
}

/**
 * Runs `fn` in one transaction as `dashboard_app`, seeing and writing the rows of `storeUrls` only. Background work over one store passes
 * `[storeUrl]`. Called inside a transaction, it joins it (and the role and reach hold until it ends).
 */
export function withReach<T>(db: Db, storeUrls: readonly string[], fn: (tx: Db) => Promise<T>): Promise<T> {
  return bound(db, { storeUrls: [...storeUrls] }, fn);
}

/**
 * The deliberate cross-store paths only (the digest planner's scan of due schedules, the alert scan of rules to check, the purge of expired
 * rows, an unsubscribe token, a key's own rows across its stores): `fn` runs in one transaction as `dashboard_maintenance`, which sees
 * every store. `why` says which path it is (kept in the transaction's setting dashboard.purpose).
 */
export function acrossStores<T>(db: Db, why: string, fn: (tx: Db) => Promise<T>): Promise<T> {
  // Joining a transaction would leave the rest of it in the maintenance role: refused.
  if (ownerOf(db).inTransaction) return Promise.reject(new Error(`acrossStores (${why}) cannot join a transaction already open.`));
  return bound(db, { acrossStores: why }, fn);
}

/**
 * `acrossStores` for the operator's checks, which may meet a database whose migrations have not
 * created the roles yet: there, row-level security is not in place either, and the owner reads as is.
 */
export async function acrossStoresIfMigrated<T>(db: Db, why: string, fn: (tx: Db) => Promise<T>): Promise<T> {
  const [role] = await ownerOf(db).query<{ found: boolean }>("select exists (select 1 from pg_roles where rolname = $1) as found", [
    MAINTENANCE_ROLE,
  ]);
  return role?.found ? acrossStores(db, why, fn) : fn(ownerOf(db));
}

/**
 * Runs `fn` with every query of the process's database (`database()`) scoped to `storeUrls`, each statement or transaction on its own: the
 * pipeline runs each handler so, with the stores its route may touch, and background work of one store with that store.
 */
export function inReach<T>(storeUrls: readonly string[], fn: () => Promise<T>): Promise<T> {
  return bindings.run({ storeUrls: [...storeUrls] }, fn);
}

/**
 * The process's handle as the application uses it: each query, statement or transaction runs as `dashboard_app` with the reach of the work
 * it belongs to (inReach), or with no reach at all, so that it reads no store's rows. Tables of no store (sessions, sign-in failures, the
 * jobs queue, secrets) stay readable and writable to it.
 */
export function applicationDb(owner: Db): Db {
  return handle(owner, () => bindings.getStore() ?? { storeUrls: [] });
}

/** A handle whose every query, statement or transaction runs with the reach `storeUrls`, wherever it is called from. */
export function reachDb(db: Db, storeUrls: readonly string[]): Db {
  const binding = { storeUrls: [...storeUrls] };
  return handle(ownerOf(db), () => binding);
}

/** A handle bound to one session, no store: the rows of its key ring are the only ones it sees (migration 0025). */
export function sessionDb(db: Db, sessionId: string): Db {
  const binding = { storeUrls: [], sessionId };
  return handle(ownerOf(db), () => binding);
}

/** A handle whose every query, statement or transaction runs across stores, for `why` (the job queue's own bookkeeping). */
export function acrossStoresDb(db: Db, why: string): Db {
  const binding = { acrossStores: why };
  return handle(ownerOf(db), () => binding);
}

function handle(owner: Db, binding: () => Binding): Db {
  const app: AppDb = {
    kind: owner.kind,
    [OWNER]: owner,
    query: <R>(sql: string, params?: unknown[]) => bound(owner, binding(), (tx) => tx.query<R>(sql, params)),
    exec: (sql) => bound(owner, binding(), (tx) => tx.exec(sql)),
    listen: (channel, onNotify, onListening) => owner.listen(channel, onNotify, onListening),
    transaction: (fn, setup) => bound(owner, binding(), fn, setup),
    close: () => owner.close(),
    poolStats: owner.poolStats ? () => owner.poolStats!() : undefined,
  };
  return app;
}
