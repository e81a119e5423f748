import "server-only";
import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import { settings } from "@/server/config/settings";
import { database } from "@/server/db/database";
import { logger } from "@/server/observability/log";
import { processSingleton } from "@/server/runtime/singleton";
import { claimForSlots, releaseClaims, renewLeases } from "./claims";
import { queueDb, registeredJobs, runJob } from "./queue";
import { startSchedule, type Schedule } from "./schedule";

/**
 * The process's worker (docs/decisions/job-queue.md, "Quiet when idle"). It claims when told a job was
 * queued (LISTEN on the channel migration 0027's triggers notify), when a job it knows of comes
 * due or another worker's lease lapses (timed from its last claim), when one of its runs ends
 * while due jobs were left behind, and at the slow poll, a safety net for anything it was not
 * told. Idle, it touches the database only for its recurring slots and that poll.
 */
const CHANNEL = "dashboard_jobs";
/**
 * The safety net: at most this long between two claims. Longer than the digest planner's minute,
 * whose claim (every instance is told of its slot) already looks at the whole queue each minute:
 * idle, the net never fires beside it.
 */
const SAFETY_POLL_MS = 300_000;

interface Worker {
  id: string;
  runDeadlineSeconds: number;
  safetyPollMs: number;
  running: Map<string, AbortController>;
  inFlight: Set<Promise<void>>;
  stopped: boolean;
  /** The claim in progress (a stop waits for it), and whether a wake came meanwhile. */
  claiming?: Promise<void>;
  again: boolean;
  /** The last claim left due jobs behind: the end of a run claims again. */
  dueLeft: boolean;
  /** When the timer fires (this process's clock), and the database's clock ahead of it. */
  wakeAt: number;
  timer?: NodeJS.Timeout;
  clockOffsetMs: number;
  /** A time a notification named during the claim in progress. */
  heardAt: number;
  heartbeat?: NodeJS.Timeout;
  schedule?: Schedule;
  unlisten?: Promise<() => Promise<void>>;
}

const state = processSingleton("jobWorker", () => ({ worker: undefined as Worker | undefined }));

/** The database's clock, as this process reckons it from its last claim. */
const databaseNow = (worker: Worker) => Date.now() + worker.clockOffsetMs;

/** Sets the one timer to `at` (a time of the database's clock); when it fires, the safety net's catch-up, then a claim. */
function arm(worker: Worker, at: number): void {
  clearTimeout(worker.timer);
  worker.timer = undefined;
  if (worker.stopped || !Number.isFinite(at)) return;
  worker.wakeAt = at - worker.clockOffsetMs;
  worker.timer = setTimeout(
    () => {
      worker.timer = undefined;
      // It also queues a recurring slot that could not be queued in its time.
      void worker.schedule
        ?.catchUp()
        .catch(() => {})
        .finally(() => wake(worker));
    },
    Math.max(0, worker.wakeAt - Date.now()),
  );
}

/** Claims at `at` unless the timer fires sooner; during a claim, the claim's end takes it into account. */
function wakeAt(worker: Worker, at: number): void {
  if (worker.claiming) worker.heardAt = Math.min(worker.heardAt, at);
  else if (!worker.timer || at - worker.clockOffsetMs < worker.wakeAt) arm(worker, at);
}

/** One claim; resolves with when to claim next (the database's clock). */
async function claimOnce(worker: Worker): Promise<number> {
  const { leaseSeconds, concurrency, tenantConcurrency } = settings().jobs;
  const free = concurrency - worker.running.size;
  // No free slot: the end of a run claims again.
  worker.dueLeft ||= free <= 0;
  if (free <= 0) return databaseNow(worker) + worker.safetyPollMs;
  const db = await queueDb();
  const claim = await claimForSlots(db, worker.id, registeredJobs().names, free, {
    leaseSeconds,
    deadlineSeconds: worker.runDeadlineSeconds,
    tenantConcurrency,
  });
  // Stopping: what this claim took goes back to the queue for another instance, unstarted.
  if (worker.stopped)
    return releaseClaims(
      db,
      worker.id,
      claim.claimed.map((job) => job.id),
    ).then(() => Infinity);
  worker.dueLeft = claim.dueLeft;
  worker.clockOffsetMs = claim.now.getTime() - Date.now();
  for (const job of claim.claimed) {
    const controller = new AbortController();
    worker.running.set(job.id, controller);
    const run: Promise<void> = runJob(worker.id, job, worker.runDeadlineSeconds, controller).finally(() => {
      worker.running.delete(job.id);
      worker.inFlight.delete(run);
      if (worker.dueLeft) wake(worker);
    });
    worker.inFlight.add(run);
  }
  return Math.min(claim.nextAt?.getTime() ?? Infinity, claim.now.getTime() + worker.safetyPollMs);
}

/** Claims now, or once the claim in progress ends (wakes meanwhile make one more claim, not one each). */
function wake(worker: Worker): void {
  if (worker.stopped) return;
  if (worker.claiming) {
    worker.again = true;
    return;
  }
  worker.claiming = (async () => {
    do {
      worker.again = false;
      let next: number;
      try {
        next = await claimOnce(worker);
      } catch (error) {
        logger.warn({ err: error instanceof Error ? error.message : String(error) }, "Background work could not claim its jobs");
        next = databaseNow(worker) + Math.min(worker.safetyPollMs, 5_000);
      }
      arm(worker, Math.min(next, worker.heardAt));
      worker.heardAt = Infinity;
    } while (worker.again && !worker.stopped);
  })().finally(() => (worker.claiming = undefined));
}

/** A notification names the earliest run_at the statement queued (epoch milliseconds, the database's clock). */
function notified(worker: Worker, payload: string): void {
  const at = Number(payload);
  if (Number.isFinite(at) && at > databaseNow(worker)) wakeAt(worker, at);
  else wake(worker);
}

/**
 * Starts this process's worker (server/main.ts, after the database opened); a no-op when
 * BACKGROUND_JOBS=off. `runDeadlineSeconds` replaces JOBS_RUN_DEADLINE_SECONDS and `pollMs` the
 * safety net's five minutes (tests use shorter ones).
 */
export function startBackgroundWork(options: { pollMs?: number; runDeadlineSeconds?: number } = {}): void {
  const { enabled, leaseSeconds, runDeadlineSeconds } = settings().jobs;
  if (!enabled || state.worker) return;
  const worker: Worker = {
    id: `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`,
    runDeadlineSeconds: options.runDeadlineSeconds ?? runDeadlineSeconds,
    safetyPollMs: options.pollMs ?? SAFETY_POLL_MS,
    running: new Map(),
    inFlight: new Set(),
    stopped: false,
    again: false,
    dueLeft: false,
    wakeAt: Infinity,
    clockOffsetMs: 0,
    heardAt: Infinity,
  };
  state.worker = worker;
  worker.schedule = startSchedule(registeredJobs().recurring);
  // Listening (again) claims at once: whatever was queued before is found.
  worker.unlisten = database().then((db) =>
    db.listen(
      CHANNEL,
      (payload) => notified(worker, payload),
      () => wake(worker),
    ),
  );
  worker.unlisten.catch((error: unknown) => {
    logger.warn({ err: error instanceof Error ? error.message : String(error) }, "Background work could not listen; it polls");
    wake(worker);
  });
  worker.heartbeat = setInterval(
    async () => {
      if (worker.running.size === 0) return;
      try {
        const lost = await renewLeases(await queueDb(), worker.id, [...worker.running.keys()], leaseSeconds);
        for (const id of lost) worker.running.get(id)?.abort(new Error("The job's lease was lost."));
      } catch {
        // The next beat tries again; a lease that lapses lets another instance take the job.
      }
    },
    (leaseSeconds * 1000) / 3,
  );
}

/**
 * Stops claiming at once; a claim already in progress gives back what it took. Then waits for
 * the runs in flight (up to `graceMs`; the rest are aborted and their leases lapse).
 */
export async function stopBackgroundWork(graceMs = 4_000): Promise<void> {
  const worker = state.worker;
  if (!worker) return;
  worker.stopped = true;
  state.worker = undefined;
  clearTimeout(worker.timer);
  worker.schedule?.stop();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
  await Promise.race([Promise.allSettled([worker.claiming, ...worker.inFlight]), timeout]);
  clearTimeout(timer);
  clearInterval(worker.heartbeat);
  for (const controller of worker.running.values()) controller.abort(new Error("The server is stopping."));
  await worker.unlisten?.then((unlisten) => unlisten()).catch(() => {});
}
