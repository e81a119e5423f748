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
const RUN_RETENTION_DAYS = 30;

export async function pruneRuns(db: Db, now: Date): Promise<number> {
  const rows = await db.query(
    "delete from jobs where state in ('done', 'dead') and finished_at < $1::timestamptz - make_interval(days => $2) returning id",
    [now, RUN_RETENTION_DAYS],
  );
  return rows.length;
}
