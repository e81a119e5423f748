import "server-only";
import { z } from "zod";
import { settings } from "@/server/config/settings";
import { database } from "@/server/db/database";
import { acrossStores, inReach } from "@/server/db/reach";
import { enqueue, queueDb, registerJob, scheduleRecurring, type RunningJob } from "@/server/jobs/queue";
import { logger } from "@/server/observability/log";
import { processSingleton } from "@/server/runtime/singleton";
import type { UpstreamClient } from "@/server/upstream/client";
import { grantedUpstream } from "@/server/grants/granted-upstream";
import { fillMonth, monthsOf } from "./fill";
import { monthOf } from "./grain";

/**
 * Rollup fills through the job queue (its leases, its fairness per tenant, its de-duplication by
 * key): one job per store, attribution and month, queued when a view found closed days missing,
 * after a sign-in or a key added to the ring (the warm-up: the last 13 months, newest first), and
 * nightly for yesterday. The API key never reaches the queue: the instance that queued a fill
 * holds the key's client in memory for the store (`holdKey`); another instance claiming the job
 * without it gives it back to be retried.
 */
const FILL = "rollups.fill";
const NIGHTLY = "rollups.nightly";
const DAY_MS = 86_400_000;
/** How long a key's client is held for its stores' fills after the view or sign-in that brought it. */
const HOLD_MS = 6 * 3_600_000;
/** Months of the warm-up: the last 13, the current one included. */
const WARM_UP_MONTHS = 13;

const payloadSchema = z.object({
  storeUrl: z.string(),
  source: z.enum(["conversion", "first_touch"]),
  month: z.string().regex(/^\d{4}-\d{2}-01$/),
});
type FillPayload = z.infer<typeof payloadSchema>;

const held = processSingleton("rollupFillKeys", () => new Map<string, { client: UpstreamClient; until: number }>());

/** Keeps the client (without its request's signal) for the store's fills on this instance. */
function holdKey(storeUrl: string, client: UpstreamClient, now = Date.now()): void {
  held.set(storeUrl, { client: client.with({ signal: undefined }), until: now + HOLD_MS });
}

/**
 * The fills running on this instance: at most ROLLUP_FILL_CONCURRENCY, and one per store. A fill
 * also gives way to the views this instance is reading (`viewing`), for at most VIEW_WAY_MS: a
 * sign-in's warm-up would otherwise stream next to the person's first look and slow it down.
 */
const running = processSingleton("rollupFills", () => ({ count: 0, stores: new Set<string>(), views: 0, waiting: [] as (() => void)[] }));
const VIEW_WAY_MS = 60_000;

const wakeAll = () => {
  for (const wake of running.waiting.splice(0)) wake();
};

async function slot(storeUrl: string, signal: AbortSignal): Promise<() => void> {
  const limit = settings().rollups.fillConcurrency;
  const viewsUntil = Date.now() + VIEW_WAY_MS;
  const givingWay = () => running.views > 0 && Date.now() < viewsUntil;
  while (running.count >= limit || running.stores.has(storeUrl) || givingWay()) {
    signal.throwIfAborted();
    await new Promise<void>((wake) => {
      running.waiting.push(wake);
      if (givingWay()) setTimeout(wake, viewsUntil - Date.now()).unref();
    });
  }
  running.count++;
  running.stores.add(storeUrl);
  return () => {
    running.count--;
    running.stores.delete(storeUrl);
    wakeAll();
  };
}

/** Runs a view's read with the fills of this instance waiting for it (see `slot`). */
export async function viewing<T>(read: () => Promise<T>): Promise<T> {
  running.views++;
  try {
    return await read();
  } finally {
    running.views--;
    wakeAll();
  }
}

/** A fill of the store that another instance runs now (the queue's own rows): this one waits its turn. */
async function fillingElsewhere(job: RunningJob, storeUrl: string): Promise<boolean> {
  const [row] = await (
    await queueDb()
  ).query<{ n: number }>(
    `select count(*)::int as n from jobs where name = $1 and store_url = $2 and state = 'running' and lease_until >= now()
       and id <> $3::bigint and locked_by <> $4`,
    [FILL, storeUrl, job.id, job.workerId],
  );
  return (row?.n ?? 0) > 0;
}

async function runFill(job: RunningJob): Promise<{ detail: string }> {
  const { storeUrl, source, month } = payloadSchema.parse(job.payload);
  const holder = held.get(storeUrl);
  if (!holder || holder.until < Date.now())
    throw new Error("No key reaching the store is held on this instance: left for the one that queued it.");
  if (await fillingElsewhere(job, storeUrl)) throw new Error("Another instance fills this store now: retried after it.");
  const release = await slot(storeUrl, job.signal);
  try {
    const { written, restated } = await inReach([storeUrl], async () =>
      fillMonth(holder.client.with({ signal: job.signal }), { storeUrl, source }, month, { db: await database(), ...settings().rollups }),
    );
    return { detail: `${written} days of ${month.slice(0, 7)} stored, ${restated} restated` };
  } finally {
    release();
  }
}

/** Which window of the revalidation interval `now` is in: a month is filled at most once per window. */
const windowOf = (now: Date) => Math.floor(now.getTime() / (settings().rollups.revalidateSeconds * 1000));

/** Queues fills of the store's `months` (`YYYY-MM-01`), in the order given: the first runs first. */
async function queueFills(
  client: UpstreamClient,
  storeUrl: string,
  source: FillPayload["source"],
  months: string[],
  now = new Date(),
): Promise<void> {
  const { rollups, jobs } = settings();
  if (!rollups.enabled || !jobs.enabled || months.length === 0) return;
  holdKey(storeUrl, client, now.getTime());
  // The job rows of a store are under its reach (the store the key reached, from a view or a sign-in).
  for (const [index, month] of months.entries()) {
    await inReach([storeUrl], () =>
      enqueue(FILL, { storeUrl, source, month } satisfies FillPayload, {
        uniqueKey: `${FILL}:${storeUrl}:${source}:${month}:${windowOf(now)}`,
        storeUrl,
        runAt: new Date(now.getTime() + index),
      }),
    );
  }
}

/** `queueFills` behind an answer: a failure is logged, never thrown. */
export function queueFillsQuietly(client: UpstreamClient, storeUrl: string, source: FillPayload["source"], days: string[]): void {
  queueFills(client, storeUrl, source, monthsOf(days)).catch((error: unknown) =>
    logger.warn({ storeUrl, err: error instanceof Error ? error.message : String(error) }, "Rollup fills not queued"),
  );
}

/** The warm-up after a sign-in or a key added to the ring: the last 13 months of each store, newest first. */
export function warmUp(client: UpstreamClient, storeUrls: readonly string[], now = new Date()): void {
  const months = Array.from({ length: WARM_UP_MONTHS }, (_, back) => {
    const date = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
    return date.toISOString().slice(0, 10);
  });
  for (const storeUrl of storeUrls)
    queueFills(client, storeUrl, "conversion", months, now).catch((error: unknown) =>
      logger.warn({ storeUrl, err: error instanceof Error ? error.message : String(error) }, "Rollup warm-up not queued"),
    );
}

/** The newest open grant of the store, as a read-only client: how the nightly reaches a store whose key this instance does not hold. */
async function grantClient(storeUrl: string, now: Date): Promise<UpstreamClient | undefined> {
  return inReach([storeUrl], async () => {
    const [grant] = await (
      await database()
    ).query<{ id: string }>(
      "select id from grants where store_url = $1 and ended_at is null and expires_at > $2 order by created_at desc limit 1",
      [storeUrl, now],
    );
    if (!grant) return undefined;
    try {
      return (await grantedUpstream(grant.id, { requestId: `rollups-nightly-${now.getTime()}` })).upstream;
    } catch (error) {
      logger.warn({ storeUrl, err: error instanceof Error ? error.message : String(error) }, "Nightly rollup fill: the grant is unusable");
      return undefined;
    }
  });
}

/**
 * Nightly: yesterday's month again, for every store whose rollups a key used within
 * ROLLUP_RETENTION_DAYS or which an open grant reaches: with the key this instance holds for it,
 * else through the store's newest open grant.
 */
export async function nightly(now: Date): Promise<{ detail: string }> {
  const stores = await acrossStores(await database(), "day rollups: the stores to fill nightly", (tx) =>
    tx.query<{ storeUrl: string }>(
      `select store_url as "storeUrl" from rollup_month_use where used_at >= $1
       union select store_url from grants where ended_at is null and expires_at > $2
       except select store_url from rollup_stores_unreached`,
      [new Date(now.getTime() - settings().retention.rollupStoreDays * DAY_MS), now],
    ),
  );
  const yesterday = new Date(now.getTime() - DAY_MS).toISOString().slice(0, 10);
  let queued = 0;
  for (const { storeUrl } of stores) {
    const holder = held.get(storeUrl);
    const client = holder && holder.until >= now.getTime() ? holder.client : await grantClient(storeUrl, now);
    if (!client) continue;
    await queueFills(client, storeUrl, "conversion", [monthOf(yesterday)], now);
    queued++;
  }
  return { detail: `${queued} of ${stores.length} stores queued` };
}

export function registerRollupJobs(): void {
  registerJob(FILL, runFill, { maxAttempts: 8, backoffMs: 5_000 });
  registerJob(NIGHTLY, () => nightly(new Date()), { maxAttempts: 2 });
  scheduleRecurring(NIGHTLY, DAY_MS);
}
