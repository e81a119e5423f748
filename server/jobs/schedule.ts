import "server-only";
import { database } from "@/server/db/database";
import { logger } from "@/server/observability/log";
import type { Recurring } from "./queue";

/**
 * The recurring jobs' slots, kept in memory: one timer, set for the earliest next slot of any of
 * them. When it fires, every recurring job whose slot began is queued, all in one statement, each
 * slot under its unique key (`name@<slot start>`): however many instances queue it, the first
 * wins and the slot runs once. A slot that could not be queued (the database was away) is queued
 * at the timer's next slot, or by the worker's slow poll (`catchUp`); an instance that starts
 * mid-slot queues the current slot at once.
 */
export interface Schedule {
  catchUp(): Promise<void>;
  stop(): void;
}

const slotOf = (recurring: Recurring, now: number) => Math.floor(now / recurring.everyMs) * recurring.everyMs;

export function startSchedule(recurring: readonly Recurring[]): Schedule {
  const queued = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const catchUp = async () => {
    const now = Date.now();
    const due = recurring.filter((job) => slotOf(job, now) > (queued.get(job.name) ?? -1));
    if (due.length === 0) return;
    const slots = due.map((job) => new Date(slotOf(job, now)));
    await (
      await database()
    ).query(
      `insert into jobs (name, payload, unique_key, run_at, max_attempts)
       select name, payload::jsonb, unique_key, run_at, 1
       from unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[]) as slot (name, payload, unique_key, run_at)
       on conflict (unique_key) do nothing`,
      [
        due.map((job) => job.name),
        due.map((job) => JSON.stringify(job.payload ?? {})),
        due.map((job, index) => `${job.name}@${slots[index]!.toISOString()}`),
        slots,
      ],
    );
    due.forEach((job, index) => queued.set(job.name, slots[index]!.getTime()));
  };

  const tick = async () => {
    try {
      await catchUp();
    } catch (error) {
      logger.warn(
        { err: error instanceof Error ? error.message : String(error) },
        "Recurring jobs could not be queued; the next slot tries again",
      );
    }
    if (stopped || recurring.length === 0) return;
    const now = Date.now();
    const next = Math.min(...recurring.map((job) => slotOf(job, now) + job.everyMs));
    timer = setTimeout(() => void tick(), Math.max(1, next - now));
  };
  void tick();

  return {
    catchUp,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
