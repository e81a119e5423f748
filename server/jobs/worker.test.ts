import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { database } from "@/server/db/database";
import { enqueue, PermanentJobFailure, registerJob, scheduleRecurring } from "./queue";
import { startBackgroundWork, stopBackgroundWork } from "./worker";

/** A run's deadline in this file: short, so a handler that never ends is abandoned quickly. */
const DEADLINE_SECONDS = 1;

async function settled(id: string) {
  const db = await database();
  for (let waited = 0; waited < 15_000; waited += 25) {
    const [job] = await db.query<{ state: string; attempts: number; detail: string | null }>(
      "select state, attempts, detail from jobs where id = $1",
      [id],
    );
    if (job && (job.state === "done" || job.state === "dead")) return job;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`job ${id} did not settle`);
}

describe("the background worker", () => {
  const tries = new Map<string, number>();
  const endless: { attempt: number; signal: AbortSignal }[] = [];
  beforeAll(() => {
    registerJob(
      "test.flaky",
      async (job) => {
        const count = (tries.get(job.id) ?? 0) + 1;
        tries.set(job.id, count);
        if (count < 3) throw new Error(`failure ${count}`);
        return { detail: `done on attempt ${job.attempt}` };
      },
      { maxAttempts: 5, backoffMs: 20 },
    );
    registerJob(
      "test.broken",
      async () => {
        throw new Error("always");
      },
      { maxAttempts: 2, backoffMs: 20 },
    );
    registerJob("test.hopeless", async () => {
      throw new PermanentJobFailure("the grant was revoked");
    });
    registerJob(
      "test.endless",
      (job) => {
        endless.push({ attempt: job.attempt, signal: job.signal });
        // Never settles, and ignores its signal: only the deadline frees the job.
        return new Promise(() => {});
      },
      { maxAttempts: 2, backoffMs: 20 },
    );
    registerJob("test.recurring", async () => ({ detail: "ran" }), { maxAttempts: 1 });
    registerJob("test.quick", async () => ({ detail: "ran" }));
    scheduleRecurring("test.recurring", 500);
    // The safety poll is minutes away: every job here starts because the worker is told, or knows, it is due.
    startBackgroundWork({ runDeadlineSeconds: DEADLINE_SECONDS });
  });
  afterAll(() => stopBackgroundWork());

  it("queues a recurring job once per slot, under the slot's key, and runs it with no one asking", async () => {
    const db = await database();
    const runs = async () =>
      db.query<{ uniqueKey: string; state: string }>(
        `select unique_key as "uniqueKey", state from jobs where name = 'test.recurring' and state = 'done' order by run_at`,
      );
    // Polled every 20 ms, a slot of 500 ms is seen about 25 times: it must still be run once.
    for (let waited = 0; (await runs()).length < 3 && waited < 10_000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const done = await runs();
    expect(done.length).toBeGreaterThanOrEqual(3);
    const slots = done.map((run) => run.uniqueKey);
    expect(new Set(slots).size).toBe(slots.length);
    for (const key of slots) expect(new Date(key.replace("test.recurring@", "")).getTime() % 500).toBe(0);
  });

  it("starts a queued job within a second, told by the database, its slow poll minutes away", async () => {
    const db = await database();
    const waits: number[] = [];
    for (const runAt of [undefined, new Date(Date.now() + 1_500)]) {
      const { id } = await enqueue("test.quick", {}, { runAt });
      await settled(id);
      const [job] = await db.query<{ waitMs: number }>(
        `select extract(epoch from started_at - greatest(created_at, run_at)) * 1000 as "waitMs" from jobs where id = $1`,
        [id],
      );
      waits.push(Number(job!.waitMs));
    }
    // Queued now, and queued for 1.5 s from now: each starts within a second of being due.
    expect(waits.every((wait) => wait >= 0 && wait < 1_000)).toBe(true);
  });

  it("retries a failing job with backoff until it succeeds", async () => {
    const { id } = await enqueue("test.flaky", {});
    expect(await settled(id)).toEqual({ state: "done", attempts: 3, detail: "done on attempt 3" });
  });

  it("makes a job dead once its attempts are spent, keeping the last error", async () => {
    const { id } = await enqueue("test.broken", {});
    expect(await settled(id)).toEqual({ state: "dead", attempts: 2, detail: "always" });
  });

  it("makes a job dead at once when no retry can help", async () => {
    const { id } = await enqueue("test.hopeless", {});
    expect(await settled(id)).toEqual({ state: "dead", attempts: 1, detail: "the grant was revoked" });
  });

  it("abandons a run that never ends at its deadline, aborting its signal, and retries it per its attempts", async () => {
    const started = Date.now();
    const { id } = await enqueue("test.endless", {});
    expect(await settled(id)).toEqual({ state: "dead", attempts: 2, detail: "Abandoned after its 1-second deadline." });
    expect(Date.now() - started).toBeGreaterThanOrEqual(2 * DEADLINE_SECONDS * 1000 - 100);
    expect(endless.map((run) => run.attempt)).toEqual([1, 2]);
    expect(endless.every((run) => run.signal.aborted)).toBe(true);
    expect(String(endless[0]!.signal.reason)).toContain("Abandoned after its 1-second deadline.");
    // Abandoned, the job holds no lease: a message the handler would still send is refused by the ledger.
    const [row] = await (
      await database()
    ).query<{ lockedBy: string | null }>('select locked_by as "lockedBy" from jobs where id = $1', [id]);
    expect(row!.lockedBy).toBeNull();
  });
});
