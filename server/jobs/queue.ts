import "server-only";
import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import { settings } from "@/server/config/settings";
import { inReach } from "@/server/db/reach";
import { database, type Db } from "@/server/db/database";
import { logger } from "@/server/observability/log";
import { processSingleton } from "@/server/runtime/singleton";

/**
 * Background jobs in the dashboard's own database (docs/features/digests-and-grants.md): any
 * number of instances poll one table; a job is claimed with `for update skip locked` under a
 * lease its worker renews every third of the lease, so a worker killed mid-run loses it within
 * JOBS_LEASE_SECONDS and another instance runs the job again. Failures are retried with
 * exponential backoff up to the job's attempts, then the job is dead (kept, shown on the Runs page).
 */

export interface RunningJob {
  id: string;
  name: string;
  payload: unknown;
  /** 1 for the first run. */
  attempt: number;
  /** Aborted when the lease is lost, the run's deadline passes, or the process stops. */
  signal: AbortSignal;
  /** The worker holding the job's lease: a side effect checks it still does (server/delivery/ledger.ts). */
  workerId: string;
}

/** What a handler may say about a run that succeeded (shown on the Runs page). */
type JobResult = { detail?: string } | void;
type JobHandler = (job: RunningJob) => Promise<JobResult>;

/** A failure that retrying cannot fix (a revoked grant): the job is dead at once. */
export class PermanentJobFailure extends Error {}

/**
 * A lease reaches at most this far past its run's deadline: the worker that holds the run records
 * it as abandoned (at the deadline) before any worker may claim the run again.
 */
const DEADLINE_MARGIN_SECONDS = 5;

/** "15-minute", "90-second": a deadline as the Runs page names it. */
const deadlineWords = (seconds: number) => (seconds % 60 === 0 ? `${seconds / 60}-minute` : `${seconds}-second`);

/** A run still going at its deadline (JOBS_RUN_DEADLINE_SECONDS): abandoned, then retried per the job's attempts. */
class RunDeadlinePassed extends Error {
  constructor(seconds: number) {
    super(`Abandoned after its ${deadlineWords(seconds)} deadline.`);
  }
}

interface JobDefinition {
  handler: JobHandler;
  maxAttempts: number;
  /** The first retry's delay; each next one doubles, up to an hour. */
  backoffMs: number;
}

interface Recurring {
  name: string;
  everyMs: number;
  payload: unknown;
}

interface Worker {
  id: string;
  timer?: NodeJS.Timeout;
  heartbeat?: NodeJS.Timeout;
  running: Map<string, AbortController>;
  stopped: boolean;
  inFlight: Set<Promise<void>>;
  runDeadlineSeconds: number;
}

const registry = processSingleton("jobRegistry", () => ({
  jobs: new Map<string, JobDefinition>(),
  recurring: new Map<string, Recurring>(),
  worker: undefined as Worker | undefined,
}));

/** Declares what runs a job of this name (on this process: every instance registers the same ones). */
export function registerJob(name: string, handler: JobHandler, options: { maxAttempts?: number; backoffMs?: number } = {}): void {
  registry.jobs.set(name, { handler, maxAttempts: options.maxAttempts ?? 5, backoffMs: options.backoffMs ?? 15_000 });
}

/**
 * Runs the job `name` once per slot of `everyMs` (aligned on the epoch), however many instances
 * are running: each slot's job has a unique key, so the first instance to enqueue it wins.
 */
export function scheduleRecurring(name: string, everyMs: number, payload: unknown = {}): void {
  registry.recurring.set(name, { name, everyMs, payload });
}

interface EnqueueOptions {
  /** At most one job ever holds this key: enqueuing it again does nothing. */
  uniqueKey?: string;
  runAt?: Date;
  /** The organization of the job's store. */
  organizationId?: string;
  /** The store the job works for: lets the users who reach it see the run on the Runs page. */
  storeUrl?: string;
  maxAttempts?: number;
  /** Enqueue inside this transaction (the job exists only if it commits). */
  db?: Db;
}

/** Adds a job; `created` is false when a job with the same unique key already exists. */
export async function enqueue(name: string, payload: unknown, options: EnqueueOptions = {}): Promise<{ id: string; created: boolean }> {
  const db = options.db ?? (await database());
  const maxAttempts = options.maxAttempts ?? registry.jobs.get(name)?.maxAttempts ?? 5;
  const [row] = await db.query<{ id: string }>(
    `insert into jobs (name, payload, unique_key, organization_id, store_url, run_at, max_attempts)
     values ($1, ($2::text)::jsonb, $3, $4, $5, coalesce($6, now()), $7)
     on conflict (unique_key) do nothing returning id::text as id`,
    [
      name,
      JSON.stringify(payload ?? {}),
      options.uniqueKey ?? null,
      options.organizationId ?? null,
      options.storeUrl ?? null,
      options.runAt ?? null,
      maxAttempts,
    ],
  );
  if (row) return { id: row.id, created: true };
  const [existing] = await db.query<{ id: string }>("select id::text as id from jobs where unique_key = $1", [options.uniqueKey]);
  return { id: existing!.id, created: false };
}

interface ClaimedRow {
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

async function finish(db: Db, workerId: string, job: ClaimedRow, definition: JobDefinition, error?: unknown, result?: JobResult) {
  if (error === undefined) {
    await db.query(
      "update jobs set state = 'done', finished_at = now(), lease_until = null, detail = $3 where id = $1 and locked_by = $2",
      [job.id, workerId, (result && result.detail) ?? null],
    );
    return;
  }
  const message = error instanceof Error ? error.message : String(error);
  const dead = error instanceof PermanentJobFailure || job.attempts >= definition.maxAttempts;
  // Exponential backoff with jitter, so instances retrying together spread out.
  const delayMs = Math.min(definition.backoffMs * 2 ** (job.attempts - 1), 3_600_000) * (0.75 + Math.random() / 2);
  await db.query(
    `update jobs set state = $3, detail = $4, lease_until = null, locked_by = null,
       finished_at = case when $3 = 'dead' then now() end, run_at = case when $3 = 'queued' then now() + make_interval(secs => $5) else run_at end
     where id = $1 and locked_by = $2`,
    [job.id, workerId, dead ? "dead" : "queued", message.slice(0, 500), delayMs / 1000],
  );
}

async function runJob(worker: Worker, job: ClaimedRow, deadlineSeconds: number): Promise<void> {
  const definition = registry.jobs.get(job.name)!;
  const controller = new AbortController();
  worker.running.set(job.id, controller);
  const db = await database();
  // At the deadline the handler's signal is aborted and the run is recorded as abandoned without
  // waiting for it: a handler that never ends cannot hold the job. Past that point it holds no
  // lease, so the ledger refuses any message it would still send (server/delivery/ledger.ts).
  let deadlineTimer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    deadlineTimer = setTimeout(
      () => {
        const passed = new RunDeadlinePassed(deadlineSeconds);
        controller.abort(passed);
        reject(passed);
      },
      Math.max(0, job.deadlineAt.getTime() - Date.now()),
    );
    // A stopping process exits without waiting for the deadline of a run it already gave up.
    deadlineTimer.unref();
  });
  try {
    // A job of one store sees and writes that store's rows only; a job of none, no store's rows
    // (unless it takes a deliberate path across stores: server/db/reach.ts).
    const run = inReach(job.storeUrl ? [job.storeUrl] : [], () =>
      definition.handler({
        id: job.id,
        name: job.name,
        payload: job.payload,
        attempt: job.attempts,
        signal: controller.signal,
        workerId: worker.id,
      }),
    );
    run.catch(() => {});
    const result = await Promise.race([run, deadline]);
    await finish(db, worker.id, job, definition, undefined, result);
  } catch (error) {
    logger.warn(
      { job: job.name, jobId: job.id, attempt: job.attempts, err: error instanceof Error ? error.message : String(error) },
      "Job failed",
    );
    await finish(db, worker.id, job, definition, error ?? new Error("failed")).catch(() => {});
  } finally {
    clearTimeout(deadlineTimer);
    worker.running.delete(job.id);
  }
}

async function enqueueRecurring(): Promise<void> {
  const now = Date.now();
  for (const recurring of registry.recurring.values()) {
    const slot = new Date(Math.floor(now / recurring.everyMs) * recurring.everyMs);
    await enqueue(recurring.name, recurring.payload, { uniqueKey: `${recurring.name}@${slot.toISOString()}`, runAt: slot, maxAttempts: 1 });
  }
}

/** A cap no tenant reaches: the spare claim's. */
const NO_TENANT_CAP = 1_000_000;

/**
 * A worker's claim for its `free` slots: first fairly within each tenant's cap; then, when slots
 * are left over, into all of them but one beyond the cap (still round-robin), so a tenant alone
 * in the queue is not held to its cap while this worker idles, and one slot always stays for a
 * tenant that runs nothing yet.
 */
export async function claimForSlots(
  db: Db,
  workerId: string,
  names: string[],
  free: number,
  options: { leaseSeconds: number; deadlineSeconds: number; tenantConcurrency: number },
): Promise<ClaimedRow[]> {
  const { leaseSeconds, deadlineSeconds, tenantConcurrency } = options;
  const fair = await claimJobs(db, workerId, names, free, leaseSeconds, deadlineSeconds, tenantConcurrency);
  const spare = free - fair.length - 1;
  if (spare <= 0) return fair;
  return [...fair, ...(await claimJobs(db, workerId, names, spare, leaseSeconds, deadlineSeconds, NO_TENANT_CAP))];
}

async function poll(worker: Worker): Promise<void> {
  const { leaseSeconds, concurrency, tenantConcurrency } = settings().jobs;
  const deadlineSeconds = worker.runDeadlineSeconds;
  await enqueueRecurring();
  const free = concurrency - worker.running.size;
  if (free <= 0 || worker.stopped) return;
  const claimed = await claimForSlots(await database(), worker.id, [...registry.jobs.keys()], free, {
    leaseSeconds,
    deadlineSeconds,
    tenantConcurrency,
  });
  for (const job of claimed) {
    const run: Promise<void> = runJob(worker, job, deadlineSeconds).finally(() => worker.inFlight.delete(run));
    worker.inFlight.add(run);
  }
}

/**
 * Starts this process's worker (server/main.ts, after the database opened); a no-op when
 * BACKGROUND_JOBS=off. `runDeadlineSeconds` replaces JOBS_RUN_DEADLINE_SECONDS (tests use a short one).
 */
export function startBackgroundWork(options: { pollMs?: number; runDeadlineSeconds?: number } = {}): void {
  const { enabled, leaseSeconds, runDeadlineSeconds } = settings().jobs;
  if (!enabled || registry.worker) return;
  const worker: Worker = {
    id: `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`,
    runDeadlineSeconds: options.runDeadlineSeconds ?? runDeadlineSeconds,
    running: new Map(),
    stopped: false,
    inFlight: new Set(),
  };
  registry.worker = worker;
  const pollMs = options.pollMs ?? 1_000;
  const tick = async () => {
    try {
      await poll(worker);
    } catch (error) {
      logger.warn({ err: error instanceof Error ? error.message : String(error) }, "Background work could not poll its jobs");
    }
    if (!worker.stopped) worker.timer = setTimeout(tick, pollMs);
  };
  worker.timer = setTimeout(tick, 0);
  worker.heartbeat = setInterval(
    async () => {
      try {
        const lost = await renewLeases(await database(), worker.id, [...worker.running.keys()], leaseSeconds);
        for (const id of lost) worker.running.get(id)?.abort(new Error("The job's lease was lost."));
      } catch {
        // The next beat tries again; a lease that lapses lets another instance take the job.
      }
    },
    (leaseSeconds * 1000) / 3,
  );
}

/** Stops polling and waits for runs in flight (up to `graceMs`; the rest are aborted and their leases lapse). */
export async function stopBackgroundWork(graceMs = 4_000): Promise<void> {
  const worker = registry.worker;
  if (!worker) return;
  worker.stopped = true;
  registry.worker = undefined;
  clearTimeout(worker.timer);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
  await Promise.race([Promise.allSettled([...worker.inFlight]), timeout]);
  clearTimeout(timer);
  clearInterval(worker.heartbeat);
  for (const controller of worker.running.values()) controller.abort(new Error("The server is stopping."));
}
