import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openForSuite, storageBackends, unique } from "@/test/databases";
import type { Db } from "@/server/db/database";
import { claimForSlots, claimJobs, renewLeases } from "./claims";
import { enqueue } from "./queue";
import { listRuns, pruneRuns } from "./runs";

describe.each(storageBackends())("the job queue on %s", (backend) => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => ({ db, close } = await openForSuite(backend)));
  afterAll(() => close());

  // The tests before the fairness ones are not about the per-tenant cap (their jobs share the tenant of no store).
  const NO_CAP = 1_000;
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
    const [a, b] = await Promise.all([
      claimJobs(db, "worker-a", [name], 10, 30, 900, NO_CAP),
      claimJobs(db, "worker-b", [name], 10, 30, 900, NO_CAP),
    ]);
    expect([...a, ...b].map((job) => job.id)).toEqual([first.id]);
    expect([...a, ...b][0]!.payload).toEqual({ n: 1 });
  });

  it("hands a job whose lease lapsed (its worker died) to another worker, and a renewed lease keeps it", async () => {
    const name = unique("job");
    const { id } = await enqueue(name, {}, { db });
    await claimJobs(db, "worker-a", [name], 1, 30, 900, NO_CAP);
    expect(await claimJobs(db, "worker-b", [name], 1, 30, 900, NO_CAP)).toEqual([]);
    expect(await renewLeases(db, "worker-a", [id], 30)).toEqual([]);
    await db.query("update jobs set lease_until = now() - interval '1 second' where id = $1", [id]);
    const taken = await claimJobs(db, "worker-b", [name], 1, 30, 900, NO_CAP);
    expect(taken.map((job) => [job.id, job.attempts])).toEqual([[id, 2]]);
    // The dead worker's heartbeat learns it lost the job.
    expect(await renewLeases(db, "worker-a", [id], 30)).toEqual([id]);
  });

  it("makes a job dead when its lease lapses with no attempt left", async () => {
    const name = unique("job");
    const { id } = await enqueue(name, {}, { db, maxAttempts: 1 });
    await claimJobs(db, "worker-a", [name], 1, 30, 900, NO_CAP);
    await db.query("update jobs set lease_until = now() - interval '1 second' where id = $1", [id]);
    expect(await claimJobs(db, "worker-b", [name], 1, 30, 900, NO_CAP)).toEqual([]);
    expect(await state(id)).toMatchObject({ state: "dead", attempts: 1 });
  });

  it("sets a run's deadline at its claim, never renews its lease past it, and gives it up there", async () => {
    const name = unique("job");
    const { id } = await enqueue(name, {}, { db, maxAttempts: 2 });
    const [claimed] = await claimJobs(db, "worker-a", [name], 1, 30, 60, NO_CAP);
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
    const taken = await claimJobs(db, "worker-b", [name], 1, 30, 900, NO_CAP);
    expect(taken.map((job) => [job.id, job.attempts])).toEqual([[id, 2]]);
    expect(taken[0]!.deadlineAt.getTime()).toBeGreaterThan(Date.now() + 890_000);
  });

  it("makes a run dead when it passed its deadline with no attempt left, saying so", async () => {
    const name = unique("job");
    const { id } = await enqueue(name, {}, { db, maxAttempts: 1 });
    await claimJobs(db, "worker-a", [name], 1, 30, 900, NO_CAP);
    await db.query("update jobs set deadline_at = now() - interval '1 second', lease_until = now() - interval '1 second' where id = $1", [
      id,
    ]);
    expect(await claimJobs(db, "worker-b", [name], 1, 30, 900, NO_CAP)).toEqual([]);
    expect(await state(id)).toEqual({
      state: "dead",
      attempts: 1,
      detail: "Abandoned after its 15-minute deadline. No attempt was left.",
    });
  });

  it("does not run a job before its time", async () => {
    const name = unique("job");
    await enqueue(name, {}, { db, runAt: new Date(Date.now() + 60_000) });
    expect(await claimJobs(db, "worker-a", [name], 1, 30, 900, NO_CAP)).toEqual([]);
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
    // A kind that keeps its runs a day (a store's alert check, every five minutes) loses them sooner.
    const daily = unique("job");
    const [dayOld, hourOld] = [await enqueue(daily, {}, { db, storeUrl }), await enqueue(daily, {}, { db, storeUrl })];
    await db.query("update jobs set state = 'done', finished_at = now() - interval '25 hours' where id = $1", [dayOld.id]);
    await db.query("update jobs set state = 'done', finished_at = now() - interval '1 hour' where id = $1", [hourOld.id]);
    await pruneRuns(db, new Date(), { [daily]: 1 });
    expect((await listRuns(db, [storeUrl])).map((run) => run.id).sort()).toEqual([recent.id, hourOld.id].sort());
  });

  describe("fairness across tenants", () => {
    const finishAll = (ids: string[]) =>
      db.query("update jobs set state = 'done', finished_at = now() where id = any($1::bigint[])", [ids]);
    const tenantOf = (id: string) =>
      db.query<{ tenant: string }>("select tenant from jobs where id = $1", [id]).then((rows) => rows[0]!.tenant);

    it("claims another organization's job in the first claim, behind 1,000 queued jobs of one organization", async () => {
      const name = unique("job");
      const [flooder, other] = [unique("org"), unique("org")];
      const start = Date.now() - 3_600_000;
      const flood = await db.transaction(async (tx) => {
        const ids: string[] = [];
        for (let index = 0; index < 1_000; index += 1) {
          ids.push(
            (
              await enqueue(
                name,
                { index },
                { db: tx, organizationId: flooder, storeUrl: `${flooder}.example`, runAt: new Date(start + index) },
              )
            ).id,
          );
        }
        return ids;
      });
      const { id: scheduled } = await enqueue(name, {}, { db, organizationId: other, storeUrl: `${other}.example` });
      const claimed = await claimJobs(db, "worker-a", [name], 2, 30, 900, 2);
      expect(claimed.map((job) => job.id).sort()).toEqual([flood[0]!, scheduled].sort());
    });

    it("holds the per-tenant cap across two workers, claiming one after the other or at once", async () => {
      const name = unique("job");
      const [one, two] = [unique("org"), unique("org")];
      const queue = async (organizationId: string) => {
        for (let index = 0; index < 6; index += 1) await enqueue(name, { index }, { db, organizationId });
      };
      await queue(one);
      const first = await claimJobs(db, "worker-a", [name], 4, 30, 900, 2);
      expect(first).toHaveLength(2);
      expect(await claimJobs(db, "worker-b", [name], 4, 30, 900, 2)).toEqual([]);
      // A finished run frees its place for either worker.
      await finishAll([first[0]!.id]);
      expect(await claimJobs(db, "worker-b", [name], 4, 30, 900, 2)).toHaveLength(1);
      // A lapsed lease (its worker died) holds no place: its job is claimed again within the cap.
      await db.query("update jobs set lease_until = now() - interval '1 second' where id = $1", [first[1]!.id]);
      expect((await claimJobs(db, "worker-a", [name], 4, 30, 900, 2)).map((job) => job.id)).toEqual([first[1]!.id]);

      await queue(two);
      const [a, b] = await Promise.all([
        claimJobs(db, "worker-a", [name], 4, 30, 900, 2),
        claimJobs(db, "worker-b", [name], 4, 30, 900, 2),
      ]);
      expect(a.length + b.length).toBe(2);
      const [running] = await db.query<{ count: number }>(
        "select count(*)::int as count from jobs where organization_id = $1 and state = 'running'",
        [two],
      );
      expect(running!.count).toBe(2);
    });

    it("lets a tenant alone past its cap into a worker's spare slots, always leaving one for a tenant that runs nothing", async () => {
      const name = unique("job");
      const [alone, late] = [unique("org"), unique("org")];
      for (let index = 0; index < 10; index += 1) await enqueue(name, { index }, { db, organizationId: alone });
      const options = { leaseSeconds: 30, deadlineSeconds: 900, tenantConcurrency: 2 };
      // Two within the cap, one more into the spare slots, one slot left.
      expect((await claimForSlots(db, "worker-a", [name], 4, options)).claimed).toHaveLength(3);
      // Another worker's free slots: none within the cap (3 run), all but one beyond it.
      expect((await claimForSlots(db, "worker-b", [name], 4, options)).claimed).toHaveLength(3);
      // A tenant that runs nothing takes a worker's last slot at once.
      const { id } = await enqueue(name, {}, { db, organizationId: late });
      expect((await claimForSlots(db, "worker-a", [name], 1, options)).claimed.map((job) => job.id)).toEqual([id]);
    });

    it("keeps each tenant's jobs in the order of their run_at, then of their enqueueing", async () => {
      const name = unique("job");
      const organizationId = unique("org");
      const base = Date.now() - 60_000;
      const offsets = [30, 10, 50, 10, 20, 40];
      const ids: string[] = [];
      for (const offset of offsets) ids.push((await enqueue(name, {}, { db, organizationId, runAt: new Date(base + offset) })).id);
      const taken: string[] = [];
      for (let round = 0; round < offsets.length; round += 1) {
        const claimed = await claimJobs(db, "worker-a", [name], 3, 30, 900, 1);
        expect(claimed).toHaveLength(1);
        taken.push(claimed[0]!.id);
        await finishAll([claimed[0]!.id]);
      }
      expect(taken).toEqual([ids[1], ids[3], ids[4], ids[0], ids[5], ids[2]]);
    });

    it("counts a job of a store with no organization as its store's, and a job of no store as the dashboard's own", async () => {
      const name = unique("job");
      const organizationId = unique("org");
      const storeUrl = `${unique("store")}.example`;
      const byOrganization = await enqueue(name, {}, { db, organizationId, storeUrl });
      const byStore = await enqueue(name, {}, { db, storeUrl });
      const ofNoStore = await enqueue(name, {}, { db });
      expect(await tenantOf(byOrganization.id)).toBe(`organization:${organizationId}`);
      expect(await tenantOf(byStore.id)).toBe(`store:${storeUrl}`);
      expect(await tenantOf(ofNoStore.id)).toBe("dashboard");
    });
  });
});
