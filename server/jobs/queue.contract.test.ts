import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openForSuite, storageBackends, unique } from "@/test/databases";
import type { Db } from "@/server/db/database";
import { claimJobs, enqueue, renewLeases } from "./queue";
import { listRuns, pruneRuns } from "./runs";

describe.each(storageBackends())("the job queue on %s", (backend) => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => ({ db, close } = await openForSuite(backend)));
  afterAll(() => close());

  const state = async (id: string) =>
    (
      await db.query<{ state: string; attempts: number; detail: string | null }>("select state, attempts, detail from jobs where id = $1", [
        id,
      ])
    )[0]!;

  it("enqueues a unique key once, and gives each due job to one worker only", async () => {
    const name = unique("job");
    const first = await enqueue(name, { n: 1 }, { uniqueKey: `${name}:slot`, db });
    const again = await enqueue(name, { n: 2 }, { uniqueKey: `${name}:slot`, db });
    expect(again).toEqual({ id: first.id, created: false });
    const [a, b] = await Promise.all([claimJobs(db, "worker-a", [name], 10, 30, 900), claimJobs(db, "worker-b", [name], 10, 30, 900)]);
    expect([...a, ...b].map((job) => job.id)).toEqual([first.id]);
    expect([...a, ...b][0]!.payload).toEqual({ n: 1 });
  });

  it("hands a job whose lease lapsed (its worker died) to another worker, and a renewed lease keeps it", async () => {
    const name = unique("job");
    const { id } = await enqueue(name, {}, { db });
    await claimJobs(db, "worker-a", [name], 1, 30, 900);
    expect(await claimJobs(db, "worker-b", [name], 1, 30, 900)).toEqual([]);
    expect(await renewLeases(db, "worker-a", [id], 30)).toEqual([]);
    await db.query("update jobs set lease_until = now() - interval '1 second' where id = $1", [id]);
    const taken = await claimJobs(db, "worker-b", [name], 1, 30, 900);
    expect(taken.map((job) => [job.id, job.attempts])).toEqual([[id, 2]]);
    // The dead worker's heartbeat learns it lost the job.
    expect(await renewLeases(db, "worker-a", [id], 30)).toEqual([id]);
  });

  it("makes a job dead when its lease lapses with no attempt left", async () => {
    const name = unique("job");
    const { id } = await enqueue(name, {}, { db, maxAttempts: 1 });
    await claimJobs(db, "worker-a", [name], 1, 30, 900);
    await db.query("update jobs set lease_until = now() - interval '1 second' where id = $1", [id]);
    expect(await claimJobs(db, "worker-b", [name], 1, 30, 900)).toEqual([]);
    expect(await state(id)).toMatchObject({ state: "dead", attempts: 1 });
  });

  it("sets a run's deadline at its claim, never renews its lease past it, and gives it up there", async () => {
    const name = unique("job");
    const { id } = await enqueue(name, {}, { db, maxAttempts: 2 });
    const [claimed] = await claimJobs(db, "worker-a", [name], 1, 30, 60);
    const seconds = (claimed!.deadlineAt.getTime() - Date.now()) / 1000;
    expect(seconds).toBeGreaterThan(55);
    expect(seconds).toBeLessThanOrEqual(61);
    // A deadline nearer than a lease caps the lease (plus a margin in which its holder records the run as abandoned).
    await db.query("update jobs set deadline_at = now() + interval '10 seconds' where id = $1", [id]);
    expect(await renewLeases(db, "worker-a", [id], 30)).toEqual([]);
    const [capped] = await db.query<{ capped: boolean }>(
      "select lease_until = deadline_at + interval '5 seconds' as capped from jobs where id = $1",
      [id],
    );
    expect(capped!.capped).toBe(true);
    // Past the deadline the lease is not renewed: the worker learns it lost the run, and another takes it up.
    await db.query("update jobs set deadline_at = now() - interval '1 second', lease_until = now() - interval '1 second' where id = $1", [
      id,
    ]);
    expect(await renewLeases(db, "worker-a", [id], 30)).toEqual([id]);
    const taken = await claimJobs(db, "worker-b", [name], 1, 30, 900);
    expect(taken.map((job) => [job.id, job.attempts])).toEqual([[id, 2]]);
    expect(taken[0]!.deadlineAt.getTime()).toBeGreaterThan(Date.now() + 890_000);
  });

  it("makes a run dead when it passed its deadline with no attempt left, saying so", async () => {
    const name = unique("job");
    const { id } = await enqueue(name, {}, { db, maxAttempts: 1 });
    await claimJobs(db, "worker-a", [name], 1, 30, 900);
    await db.query("update jobs set deadline_at = now() - interval '1 second', lease_until = now() - interval '1 second' where id = $1", [
      id,
    ]);
    expect(await claimJobs(db, "worker-b", [name], 1, 30, 900)).toEqual([]);
    expect(await state(id)).toEqual({
      state: "dead",
      attempts: 1,
      detail: "Abandoned after its 15-minute deadline. No attempt was left.",
    });
  });

  it("does not run a job before its time", async () => {
    const name = unique("job");
    await enqueue(name, {}, { db, runAt: new Date(Date.now() + 60_000) });
    expect(await claimJobs(db, "worker-a", [name], 1, 30, 900)).toEqual([]);
  });

  it("lists the runs of the given stores only, and deletes finished runs after 30 days", async () => {
    const storeUrl = unique("store");
    const old = await enqueue(unique("job"), {}, { db, storeUrl });
    const recent = await enqueue(unique("job"), {}, { db, storeUrl });
    await enqueue(unique("job"), {}, { db, storeUrl: unique("store") });
    await db.query("update jobs set state = 'done', finished_at = now() - interval '31 days' where id = $1", [old.id]);
    await db.query("update jobs set state = 'done', finished_at = now() where id = $1", [recent.id]);
    expect((await listRuns(db, [storeUrl])).map((run) => run.id).sort()).toEqual([old.id, recent.id].sort());
    expect(await listRuns(db, [unique("store")])).toEqual([]);
    expect(await pruneRuns(db, new Date())).toBeGreaterThanOrEqual(1);
    expect((await listRuns(db, [storeUrl])).map((run) => run.id)).toEqual([recent.id]);
  });
});
