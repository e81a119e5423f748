import "server-only";
import type { Db } from "@/server/db/database";

interface RunRow {
  id: string;
  name: string;
  state: "queued" | "running" | "done" | "dead";
  attempts: number;
  maxAttempts: number;
  detail: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  runAt: Date;
  storeUrl: string;
}

/** The recent runs of the given stores, newest first (jobs of no store, like the planner, are not shown). */
export function listRuns(db: Db, storeUrls: readonly string[], limit = 100): Promise<RunRow[]> {
  return db.query<RunRow>(
    `select id::text as id, name, state, attempts, max_attempts as "maxAttempts", detail, created_at as "createdAt",
       started_at as "startedAt", finished_at as "finishedAt", run_at as "runAt", store_url as "storeUrl"
     from jobs where store_url = any($1::text[]) order by created_at desc, id desc limit $2`,
    [storeUrls, limit],
  );
}

/** Finished runs are kept this long for the Runs page, then deleted (the deliveries ledger is kept). */
export const RUN_RETENTION_DAYS = 30;

/** Deletes finished runs older than their kind keeps them (`keepRunsDays` by job name, else RUN_RETENTION_DAYS). */
export async function pruneRuns(db: Db, now: Date, keepRunsDays: Record<string, number> = {}): Promise<number> {
  const rows = await db.query(
    `delete from jobs j where state in ('done', 'dead') and finished_at < $1::timestamptz - make_interval(days => coalesce(
       (select k.days from unnest($3::text[], $4::int[]) as k (name, days) where k.name = j.name), $2))
     returning id`,
    [now, RUN_RETENTION_DAYS, Object.keys(keepRunsDays), Object.values(keepRunsDays)],
  );
  return rows.length;
}
