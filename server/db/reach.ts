import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import pg from "pg";
import { processSingleton } from "@/server/runtime/singleton";
import type { Db } from "@/server/db/database";

/**
 * Row-level security from the application's side (migration 0011): dashboard_app sees the transaction's reach only; cross-store paths run
 * as dashboard_maintenance. A query that forgets its filter or its reach reads nothing.
 */
const APP_ROLE = "dashboard_app";
const MAINTENANCE_ROLE = "dashboard_maintenance";

/** How work's queries are scoped: a reach's stores (and the session whose ring rows it may touch), or across stores for a reason. */
type Binding = { storeUrls: readonly string[]; sessionId?: string } | { acrossStores: string };

const bindings = processSingleton("reachBindings", () => new AsyncLocalStorage<Binding>());

const OWNER = Symbol.for("dashboard.ownerDb");
type AppDb = Db & { [OWNER]: Db };

/** The owner's handle (migrations' ledger, the database's secrets) behind an application handle; it reads no store's rows (forced RLS). */
export function ownerOf(db: Db): Db {
  return (db as Partial<AppDb>)[OWNER] ?? db;
}

/** The statements that bind a transaction, unparameterized so they travel with its `begin` (one round trip); the driver quotes values. */
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
  // The setup first: `set transaction isolation level …` must come before the binding's first query.
  return ownerOf(db).transaction(fn, setup ? `${setup}; ${sql}` : sql);
}

/** Runs `fn` in one transaction as dashboard_app, seeing `storeUrls` only; inside a transaction it joins it. */
export function withReach<T>(db: Db, storeUrls: readonly string[], fn: (tx: Db) => Promise<T>): Promise<T> {
  return bound(db, { storeUrls: [...storeUrls] }, fn);
}

/** Cross-store paths only (scans, the purge, unsubscribe tokens, a key's rows), run as dashboard_maintenance; `why` is recorded. */
export function acrossStores<T>(db: Db, why: string, fn: (tx: Db) => Promise<T>): Promise<T> {
  // Joining a transaction would leave the rest of it in the maintenance role: refused.
  if (ownerOf(db).inTransaction) return Promise.reject(new Error(`acrossStores (${why}) cannot join a transaction already open.`));
  return bound(db, { acrossStores: why }, fn);
}

/** `acrossStores` for the operator's checks, which may meet a database not migrated yet (no roles, no RLS: the owner reads as is). */
export async function acrossStoresIfMigrated<T>(db: Db, why: string, fn: (tx: Db) => Promise<T>): Promise<T> {
  const [role] = await ownerOf(db).query<{ found: boolean }>("select exists (select 1 from pg_roles where rolname = $1) as found", [
    MAINTENANCE_ROLE,
  ]);
  return role?.found ? acrossStores(db, why, fn) : fn(ownerOf(db));
}

/** Runs `fn` with every query of `database()` scoped to `storeUrls`: the pipeline runs each handler so, background work with its store. */
export function inReach<T>(storeUrls: readonly string[], fn: () => Promise<T>): Promise<T> {
  return bindings.run({ storeUrls: [...storeUrls] }, fn);
}

/** The application's handle: each query runs as dashboard_app with its work's reach (inReach), or none, reading no store's rows. */
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
