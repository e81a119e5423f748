import "server-only";
import type { Db } from "./database";

/** Sign-in failures per client, counted in the database so the limit holds across instances. */
interface FailureLimit {
  limit: number;
  windowMs: number;
}

const SIGN_IN_LIMIT: FailureLimit = { limit: 10, windowMs: 60_000 };

export async function recordFailure(db: Db, client: string, now: Date): Promise<void> {
  await db.query("insert into sign_in_failures (client, at) values ($1, $2)", [client, now]);
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
