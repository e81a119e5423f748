import "server-only";
import { acrossStoresDb, inReach } from "@/server/db/reach";
import { database, type Db } from "@/server/db/database";
import { RunDeadlinePassed, type ClaimedRow } from "./claims";
import { RUN_RETENTION_DAYS } from "./runs";
import { logger } from "@/server/observability/log";
import { processSingleton } from "@/server/runtime/singleton";

/**
 * Background jobs in the dashboard's own database (docs/features/digests-and-grants.md): any
 * number of instances take jobs from one table (worker.ts wakes them when a job is queued); a job
 * is claimed with `for update skip locked` under a lease its worker renews every third of the
 * lease, so a worker killed mid-run loses it within JOBS_LEASE_SECONDS and another instance runs
 * the job again. Failures are retried with exponential backoff up to the job's attempts, then the
 * job is dead (kept, shown on the Runs page).
 */

/** The queue's own bookkeeping (claims, leases, ends) sees the jobs of every store: `jobs` is under row-level security. */
export const queueDb = async (): Promise<Db> => acrossStoresDb(await database(), "the job queue's bookkeeping");

export interface RunningJob {
  id: string;
  name: string;
  payload: unknown;
  /** 1 for the first run. */
  attempt: number;
  /**
   * Aborted when the lease is lost, the run's deadline passes, or the process stops: a handler
   * passes it to its upstream reads, sends and webhooks, and stops before its next step.
   */
  signal: AbortSignal;
  /** The worker holding the job's lease: a side effect checks it still does (server/delivery/ledger.ts). */
  workerId: string;
}

/** What a handler may say about a run that succeeded (shown on the Runs page). */
type JobResult = { detail?: string } | void;
type JobHandler = (job: RunningJob) => Promise<JobResult>;

/** A failure that retrying cannot fix (a revoked grant): the job is dead at once. */
export class PermanentJobFailure extends Error {}

interface JobDefinition {
  handler: JobHandler;
  maxAttempts: number;
  /** The first retry's delay; each next one doubles, up to an hour. */
  backoffMs: number;
  /** How long its finished runs stay on the Runs page (runs.ts). */
  keepRunsDays: number;
}

export interface Recurring {
  name: string;
  everyMs: number;
  payload: unknown;
}

const registry = processSingleton("jobRegistry", () => ({
  jobs: new Map<string, JobDefinition>(),
  recurring: new Map<string, Recurring>(),
}));

/** The kinds of job this process runs, how long each one's runs are kept, and the recurring ones. */
export const registeredJobs = () => ({
  names: [...registry.jobs.keys()],
  keepRunsDays: Object.fromEntries([...registry.jobs].map(([name, job]) => [name, job.keepRunsDays])),
  recurring: [...registry.recurring.values()],
});

/** Declares what runs a job of this name (on this process: every instance registers the same ones). */
export function registerJob(
  name: string,
  handler: JobHandler,
  options: { maxAttempts?: number; backoffMs?: number; keepRunsDays?: number } = {},
): void {
  const { maxAttempts = 5, backoffMs = 15_000, keepRunsDays = RUN_RETENTION_DAYS } = options;
  registry.jobs.set(name, { handler, maxAttempts, backoffMs, keepRunsDays });
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

/** Runs a claimed job to its end or its deadline, and records how it went. */
export async function runJob(workerId: string, job: ClaimedRow, deadlineSeconds: number, controller: AbortController): Promise<void> {
  const definition = registry.jobs.get(job.name)!;
  const db = await queueDb();
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
        workerId,
      }),
    );
    run.catch(() => {});
    const result = await Promise.race([run, deadline]);
    await finish(db, workerId, job, definition, undefined, result);
  } catch (error) {
    logger.warn(
      { job: job.name, jobId: job.id, attempt: job.attempts, err: error instanceof Error ? error.message : String(error) },
      "Job failed",
    );
    await finish(db, workerId, job, definition, error ?? new Error("failed")).catch(() => {});
  } finally {
    clearTimeout(deadlineTimer);
  }
}
