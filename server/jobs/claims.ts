import "server-only";
import type { Db } from "@/server/db/database";

// How instances take jobs from the one table (docs/decisions/job-queue.md): fairly across tenants,
// under leases renewed by the worker that holds them and capped by each run's deadline. The worker
// that wakes and claims is worker.ts; queue.ts runs and finishes the jobs.

/**
 * A lease reaches at most this far past its run's deadline: the worker that holds the run records
 * it as abandoned (at the deadline) before any worker may claim the run again.
 */
const DEADLINE_MARGIN_SECONDS = 5;

/** "15-minute", "90-second": a deadline as the Runs page names it. */
const deadlineWords = (seconds: number) => (seconds % 60 === 0 ? `${seconds / 60}-minute` : `${seconds}-second`);

/** A run still going at its deadline (JOBS_RUN_DEADLINE_SECONDS): abandoned, then retried per the job's attempts. */
export class RunDeadlinePassed extends Error {
  constructor(seconds: number) {
    super(`Abandoned after its ${deadlineWords(seconds)} deadline.`);
  }
}

export interface ClaimedRow {
  id: string;
  name: string;
  payload: unknown;
  attempts: number;
  /** The store the job works for; null for work of no one store (the planner, the purge). */
  storeUrl: string | null;
  /** When this run is abandoned; its lease is never renewed past it (but for DEADLINE_MARGIN_SECONDS). */
  deadlineAt: Date;
}

/** Any constant: claims of every instance take turns on it, so a tenant's running count is exact. */
const CLAIM_LOCK = 7_310_421_119;

/**
 * Jobs whose lease lapsed with no attempt left are dead; then up to `limit` due jobs are taken,
 * each run with a deadline `deadlineSeconds` away that caps its lease, fairly across tenants (a
 * job's organization, else its store; jobs of no store are one tenant): each tenant's due jobs
 * are ranked by (run_at, id) after the jobs it already runs, the lowest places go first
 * (round-robin), and no tenant runs more than `tenantConcurrency` at once across all instances.
 * Claims take turns on an advisory lock, so two instances never both fill a tenant's last place;
 * `for update skip locked` still keeps a row another statement holds.
 */
export async function claimJobs(
  db: Db,
  workerId: string,
  names: string[],
  limit: number,
  leaseSeconds: number,
  deadlineSeconds: number,
  tenantConcurrency: number,
): Promise<ClaimedRow[]> {
  return db.transaction(async (tx) => {
    await tx.query("select pg_advisory_xact_lock($1)", [CLAIM_LOCK]);
    await tx.query(
      `update jobs set state = 'dead', finished_at = now(), locked_by = null, lease_until = null,
         detail = case when deadline_at <= now() then $1 else 'The run stopped (its instance died) and no attempt was left.' end
       where state = 'running' and lease_until < now() and attempts >= max_attempts`,
      [`${new RunDeadlinePassed(deadlineSeconds).message} No attempt was left.`],
    );
    return tx.query<ClaimedRow>(
      // Every tenant with jobs queued or running (a skip scan of jobs_due_by_tenant), then each
      // one's running count and its first due jobs up to its free places: the cost grows with the
      // tenants waiting, not with the jobs queued (docs/decisions/job-queue.md).
      `with recursive tenants (tenant) as (
         (select tenant from jobs where state in ('queued', 'running') order by tenant limit 1)
         union all
         select (select j.tenant from jobs j where j.state in ('queued', 'running') and j.tenant > t.tenant order by j.tenant limit 1)
         from tenants t where t.tenant is not null
       ), places as (
         select due.id, due.run_at, held.count + row_number() over (partition by tenants.tenant order by due.run_at, due.id) as place
         from tenants
         cross join lateral (
           select count(*)::int as count from jobs r where r.tenant = tenants.tenant and r.state = 'running' and r.lease_until >= now()
         ) held
         cross join lateral (
           select d.id, d.run_at from jobs d
           where d.tenant = tenants.tenant and d.state in ('queued', 'running') and d.name = any($2::text[])
             and ((d.state = 'queued' and d.run_at <= now()) or (d.state = 'running' and d.lease_until < now()))
           order by d.run_at, d.id limit greatest($7 - held.count, 0)
         ) due
         where tenants.tenant is not null
       ), chosen as (
         select id from places order by place, run_at, id limit $4
       )
       update jobs set state = 'running', attempts = attempts + 1, locked_by = $1, started_at = now(),
         deadline_at = now() + make_interval(secs => $5),
         lease_until = least(now() + make_interval(secs => $3), now() + make_interval(secs => $5 + $6))
       where id in (
         select id from jobs
         where id in (select id from chosen)
           and ((state = 'queued' and run_at <= now()) or (state = 'running' and lease_until < now()))
         for update skip locked)
       returning id::text as id, name, payload, attempts, store_url as "storeUrl", deadline_at as "deadlineAt"`,
      [workerId, names, leaseSeconds, limit, deadlineSeconds, DEADLINE_MARGIN_SECONDS, tenantConcurrency],
    );
  });
}

/**
 * Renews the leases of the jobs this worker runs, never past a run's deadline (and its margin);
 * the ids it no longer holds (taken by another worker, or past their deadline) come back.
 */
export async function renewLeases(db: Db, workerId: string, ids: string[], leaseSeconds: number): Promise<string[]> {
  if (ids.length === 0) return [];
  const held = await db.query<{ id: string }>(
    `update jobs set lease_until = least(now() + make_interval(secs => $3), deadline_at + make_interval(secs => $4))
     where id = any($2::bigint[]) and locked_by = $1 and state = 'running' and (deadline_at is null or deadline_at > now())
     returning id::text as id`,
    [workerId, ids, leaseSeconds, DEADLINE_MARGIN_SECONDS],
  );
  const kept = new Set(held.map((row) => row.id));
  return ids.filter((id) => !kept.has(id));
}
/** A cap no tenant reaches: the spare claim's. */
const NO_TENANT_CAP = 1_000_000;

/** A worker's claim, and when it should look again. */
interface WorkerClaim {
  claimed: ClaimedRow[];
  /** Due jobs it did not take (no slot, or their tenant's cap): a run that ends should claim again. */
  dueLeft: boolean;
  /** The next queued job's time, or the next lapse of another worker's lease; null when neither. */
  nextAt: Date | null;
  /** The database's clock at the claim, to time `nextAt` by. */
  now: Date;
}

/**
 * A worker's claim for its `free` slots, in one transaction: first fairly within each tenant's
 * cap; then, when slots are left over, into all of them but one beyond the cap (still
 * round-robin), so a tenant alone in the queue is not held to its cap while this worker idles,
 * and one slot always stays for a tenant that runs nothing yet. Then what is due next.
 */
export function claimForSlots(
  db: Db,
  workerId: string,
  names: string[],
  free: number,
  options: { leaseSeconds: number; deadlineSeconds: number; tenantConcurrency: number },
): Promise<WorkerClaim> {
  const { leaseSeconds, deadlineSeconds, tenantConcurrency } = options;
  return db.transaction(async (tx) => {
    const claimed = await claimJobs(tx, workerId, names, free, leaseSeconds, deadlineSeconds, tenantConcurrency);
    const spare = free - claimed.length - 1;
    if (spare > 0) claimed.push(...(await claimJobs(tx, workerId, names, spare, leaseSeconds, deadlineSeconds, NO_TENANT_CAP)));
    const [next] = await tx.query<{ queued: Date | null; lapse: Date | null; now: Date }>(
      `select (select min(run_at) from jobs where state = 'queued' and name = any($1::text[])) as queued,
         (select min(lease_until) from jobs where state = 'running' and name = any($1::text[]) and locked_by <> $2) as lapse,
         now() as now`,
      [names, workerId],
    );
    const { queued, lapse, now } = next!;
    const later = [queued, lapse].filter((at): at is Date => at !== null && at > now);
    const nextAt = later.length ? new Date(Math.min(...later.map(Number))) : null;
    return { claimed, dueLeft: queued !== null && queued <= now, nextAt, now };
  });
}

/** Gives claimed jobs back untouched (their worker is stopping): queued again, the attempt not counted. */
export async function releaseClaims(db: Db, workerId: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.query(
    `update jobs set state = 'queued', attempts = attempts - 1, locked_by = null, lease_until = null, deadline_at = null, started_at = null
     where id = any($2::bigint[]) and locked_by = $1 and state = 'running'`,
    [workerId, ids],
  );
}
