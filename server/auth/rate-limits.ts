import "server-only";
import { LRUCache } from "lru-cache";
import { processSingleton } from "@/server/runtime/singleton";
import type { Db } from "@/server/db/database";

/** Sign-in failures per client, counted in the database so the limit holds across instances. */
interface FailureLimit {
  limit: number;
  windowMs: number;
}

const SIGN_IN_LIMIT: FailureLimit = { limit: 10, windowMs: 60_000 };

export async function recordFailure(db: Db, client: string, now: Date): Promise<void> {
  await db.query("insert into sign_in_failures (client, at) values ($1, $2)", [client, now]);
}

/** Clients over the limit here, until when (epoch ms): refused without a query meanwhile, so a flood costs nothing more. */
const overLimit = processSingleton("signInOverLimit", () => new LRUCache<string, number>({ max: 10_000 }));

/**
 * Counts a sign-in attempt before it is tried, under a per-client lock: the wait (s) while the window is full, else 0, counted as a failure
 * until `forgive`. Concurrent attempts cannot all slip under the limit.
 */
export async function attemptSignIn(db: Db, client: string, now: Date, limit: FailureLimit = SIGN_IN_LIMIT): Promise<number> {
  const until = overLimit.get(client) ?? 0;
  if (until > now.getTime()) return Math.ceil((until - now.getTime()) / 1000);
  const wait = await db.transaction(async (tx) => {
    await tx.query("select pg_advisory_xact_lock(hashtext('sign-in:' || $1::text))", [client]);
    const found = await retryAfterSeconds(tx, client, now, limit);
    if (found === 0) await recordFailure(tx, client, now);
    return found;
  });
  if (wait > 0) overLimit.set(client, now.getTime() + wait * 1000);
  return wait;
}

/** The attempt made at `at` was no failure of the client's (it signed in, or the dashboard failed it). */
export async function forgive(db: Db, client: string, at: Date): Promise<void> {
  await db.query("delete from sign_in_failures where ctid = (select ctid from sign_in_failures where client = $1 and at = $2 limit 1)", [
    client,
    at,
  ]);
}

/** Seconds until the client may try again, or 0 when it may try now (fewer than `limit` failures in the window). */
export async function retryAfterSeconds(
  db: Db,
  client: string,
  now: Date,
  { limit, windowMs }: FailureLimit = SIGN_IN_LIMIT,
): Promise<number> {
  // The limit-th newest failure in the window: once it leaves the window, fewer than `limit` remain.
  const [row] = await db.query<{ at: Date }>(
    `select at from sign_in_failures where client = $1 and at > $2 order by at desc offset $3 limit 1`,
    [client, new Date(now.getTime() - windowMs), limit - 1],
  );
  if (!row) return 0;
  return Math.max(1, Math.ceil((row.at.getTime() + windowMs - now.getTime()) / 1000));
}

export async function purgeFailures(db: Db, now: Date, { windowMs }: FailureLimit = SIGN_IN_LIMIT): Promise<number> {
  const rows = await db.query<{ client: string }>("delete from sign_in_failures where at <= $1 returning client", [
    new Date(now.getTime() - windowMs),
  ]);
  return rows.length;
}
