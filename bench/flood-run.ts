/**
 * The flood bench's measuring side, run with the server's module conditions by bench/flood.ts on
 * DATABASE_URL (PostgreSQL) or DATA_DIR (PGlite): organization A queues FLOOD_JOBS jobs at once
 * (a "Send now" flood), then organization B queues one scheduled job at a time (FLOOD_PROBES of
 * them); FLOOD_WORKERS workers of FLOOD_SLOTS slots each poll every FLOOD_POLL_MS and run each job
 * for 20–50 ms. B's wait is from its enqueue to its handler's start. Three runs on the same
 * database: B alone (the baseline), B beside the flood with the queue's claim, and B beside the
 * flood with the claim in first-in-first-out order the queue had before (kept here only, for the
 * contrast).
 */
import { randomInt } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { openDatabase, type Db } from "@/server/db/database";
import { applicationDb } from "@/server/db/reach";
import { claimForSlots } from "@/server/jobs/claims";
import { enqueue } from "@/server/jobs/queue";

const FLOOD_JOBS = Number(process.env.FLOOD_JOBS ?? 2_000);
const WORKERS = Number(process.env.FLOOD_WORKERS ?? 2);
const SLOTS = Number(process.env.FLOOD_SLOTS ?? 4);
const POLL_MS = Number(process.env.FLOOD_POLL_MS ?? 100);
const TENANT_CONCURRENCY = Number(process.env.JOBS_TENANT_CONCURRENCY ?? 2);
const PROBES = Number(process.env.FLOOD_PROBES ?? 10);
/** B's jobs come 400 ms apart plus up to one poll, so they meet the polls at every phase. */
const PROBE_EVERY_MS = 400;
const LEASE_SECONDS = 30;
/** JOBS_RUN_DEADLINE_SECONDS's default: no run here comes near it. */
const DEADLINE_SECONDS = 900;
const NAME = "digest.send";
const FLOODER = "org_flood_a";
const OTHER = "org_scheduled_b";

type Claim = (db: Db, workerId: string, limit: number) => Promise<{ id: string; payload: unknown }[]>;

const fairClaim: Claim = async (db, workerId, limit) =>
  (
    await claimForSlots(db, workerId, [NAME], limit, {
      leaseSeconds: LEASE_SECONDS,
      deadlineSeconds: DEADLINE_SECONDS,
      tenantConcurrency: TENANT_CONCURRENCY,
    })
  ).claimed;

/** The queue's claim before it was fair: the oldest due jobs first, whoever queued them. */
const fifoClaim: Claim = (db, workerId, limit) =>
  db.query(
    `update jobs set state = 'running', attempts = attempts + 1, locked_by = $1, started_at = now(),
       deadline_at = now() + make_interval(secs => $5), lease_until = now() + make_interval(secs => $3)
     where id in (
       select id from jobs
       where name = any($2::text[]) and ((state = 'queued' and run_at <= now()) or (state = 'running' and lease_until < now()))
       order by run_at limit $4 for update skip locked)
     returning id::text as id, payload`,
    [workerId, [NAME], LEASE_SECONDS, limit, DEADLINE_SECONDS],
  );

interface Outcome {
  waitsMs: number[];
  floodDone: number;
  seconds: number;
  claimMs: number[];
}

async function scenario(db: Db, claim: Claim, flood: boolean): Promise<Outcome> {
  await db.query("delete from jobs");
  if (flood) {
    await db.transaction(async (tx) => {
      for (let index = 0; index < FLOOD_JOBS; index += 1) {
        await enqueue(NAME, { flood: index }, { db: tx, organizationId: FLOODER, storeUrl: "flood-a.example" });
      }
    });
  }
  const enqueuedAt = new Map<number, number>();
  const waitsMs: number[] = [];
  const claimMs: number[] = [];
  let floodDone = 0;
  let stopped = false;
  const inFlight = new Set<Promise<void>>();

  const run = async (workerId: string, job: { id: string; payload: unknown }) => {
    const { probe } = job.payload as { probe?: number };
    if (probe !== undefined) waitsMs.push(performance.now() - enqueuedAt.get(probe)!);
    await sleep(randomInt(20, 51));
    await db.query("update jobs set state = 'done', finished_at = now(), lease_until = null where id = $1 and locked_by = $2", [
      job.id,
      workerId,
    ]);
    if (probe === undefined) floodDone += 1;
  };
  const worker = async (workerId: string, index: number) => {
    const running = new Set<Promise<void>>();
    // Instances poll out of step with each other.
    await sleep((index * POLL_MS) / WORKERS);
    while (!stopped) {
      const free = SLOTS - running.size;
      if (free > 0) {
        const started = performance.now();
        const claimed = await claim(db, workerId, free);
        claimMs.push(performance.now() - started);
        for (const job of claimed) {
          const task: Promise<void> = run(workerId, job).finally(() => {
            running.delete(task);
            inFlight.delete(task);
          });
          running.add(task);
          inFlight.add(task);
        }
      }
      await sleep(POLL_MS);
    }
  };

  const workers = Array.from({ length: WORKERS }, (_, index) => worker(`bench-worker-${index + 1}`, index));
  // Let the workers fill their slots with the flood before B's first job arrives.
  await sleep(flood ? 2 * POLL_MS : 0);
  const floodDoneBefore = floodDone;
  const measuring = performance.now();
  for (let probe = 0; probe < PROBES; probe += 1) {
    enqueuedAt.set(probe, performance.now());
    await enqueue(NAME, { probe }, { db, organizationId: OTHER, storeUrl: "scheduled-b.example" });
    await sleep(PROBE_EVERY_MS + randomInt(0, POLL_MS + 1));
  }
  const deadline = performance.now() + 600_000;
  while (waitsMs.length < PROBES) {
    if (performance.now() > deadline) throw new Error(`B's jobs did not all start within 10 minutes (${waitsMs.length} of ${PROBES})`);
    await sleep(20);
  }
  const seconds = (performance.now() - measuring) / 1000;
  const measuredFloodDone = floodDone - floodDoneBefore;
  stopped = true;
  await Promise.all(workers);
  await Promise.allSettled([...inFlight]);
  return { waitsMs, floodDone: measuredFloodDone, seconds, claimMs };
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};
const ms = (value: number) => (value >= 10_000 ? `${(value / 1000).toFixed(1)} s` : `${Math.round(value)} ms`);

async function main() {
  const storage = process.env.DATABASE_URL ? "PostgreSQL" : "PGlite";
  const owner = await openDatabase({
    url: process.env.DATABASE_URL,
    dataDir: process.env.DATA_DIR,
    pool: { poolSize: WORKERS * 2 + 2, connectTimeoutMs: 5_000, statementTimeoutMs: 60_000 },
  });
  // As the application runs its queries: the role dashboard_app, with no store in reach.
  const db = applicationDb(owner);
  try {
    const alone = await scenario(db, fairClaim, false);
    const fair = await scenario(db, fairClaim, true);
    const fifo = await scenario(db, fifoClaim, true);
    const baseline = quantile(alone.waitsMs, 0.5);
    console.log(
      `\nFlood on ${storage}: A queues ${FLOOD_JOBS} jobs at once, then B queues ${PROBES} (one every ${PROBE_EVERY_MS} ms plus up to a poll); ` +
        `${WORKERS} workers x ${SLOTS} slots, poll every ${POLL_MS} ms, jobs of 20-50 ms, JOBS_TENANT_CONCURRENCY=${TENANT_CONCURRENCY}`,
    );
    console.log("| Claim | B's wait p50 | B's wait max | p50 against B alone | A's jobs done a second while measured | Claim p50 / max |");
    console.log("|---|---|---|---|---|---|");
    for (const [label, outcome] of [
      ["B alone (baseline)", alone],
      ["Flood, fair claim", fair],
      ["Flood, first in first out (the old order)", fifo],
    ] as const) {
      const p50 = quantile(outcome.waitsMs, 0.5);
      const rate = outcome === alone ? "-" : (outcome.floodDone / outcome.seconds).toFixed(1);
      console.log(
        `| ${label} | ${ms(p50)} | ${ms(Math.max(...outcome.waitsMs))} | x${(p50 / baseline).toFixed(1)} | ${rate} | ` +
          `${quantile(outcome.claimMs, 0.5).toFixed(1)} / ${Math.max(...outcome.claimMs).toFixed(1)} ms |`,
      );
    }
  } finally {
    await owner.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
