import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@/server/db/database";
import { currencyDecimals } from "@/shared/format";
import type { MetricsFilters } from "@/shared/schemas/product-metrics-view";
import { usStoreReadsPerFile } from "@/test/demo-upstream";
import { fullRead } from "@/test/full-read";
import { ADMIN_KEY, US_STORE } from "@/test/harness";
import { openForSuite, storageBackends } from "@/test/databases";
import { acrossStores, reachDb } from "@/server/db/reach";
import { readRange, rollupFilterOf, type RollupPolicy } from "./reader";
import { rollupUsage } from "./bounds";
import { restatements } from "./restatements";
import { DayCells, dayWrite } from "./cells";
import { saveDays } from "./repository";
import { fillDays } from "./fill";

const DAY_MS = 86_400_000;
const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const WINDOW_START = "2026-03-01";

const reads = usStoreReadsPerFile("req_rollup_test");

async function rollupRead(policy: RollupPolicy, filters: MetricsFilters) {
  const read = await readRange(reads.client, US_STORE, filters, rollupFilterOf(filters)!, policy);
  await fillDays(reads.client, { storeUrl: US_STORE, source: filters.dimension_source ?? "conversion" }, read.toFill, policy);
  const currency = read.summary.currency?.value ?? null;
  return { answer: { currency, ...read.summary.result(currency ? currencyDecimals(currency) : 2) }, read };
}

const requests = () => reads.upstream.requestCounts().products;

describe.each(storageBackends())("day rollups on %s", (backend) => {
  // The owner's handle (it reads no row of the rollup tables), and the store's own reach.
  let owner: Db;
  let db: Db;

  let close: () => Promise<void>;
  let clock: Date;
  const policy = (): RollupPolicy => ({
    db,
    freshDays: 3,
    revalidateSeconds: 86_400,
    now: () => clock,
  });
  beforeAll(async () => {
    ({ db: owner, close } = await openForSuite(backend));
    db = reachDb(owner, [US_STORE]);
  });
  afterAll(() => close());
  beforeEach(async () => {
    reads.upstream.reset();
    clock = new Date("2026-11-27T08:00:00Z");
    await db.query("delete from rollup_days");
    await db.query("delete from rollup_restatements");
    await db.query("delete from rollup_month_use");
  });

  it("answers random ranges, filters and restatements exactly as full reads of the raw rows", async () => {
    const reference = await fullRead(reads.client, { startDate: WINDOW_START, endDate: addDays(WINDOW_START, 30) });
    const channels = reference.channels.map((channel) => channel.channel);
    const products = reference.products.map((product) => product.productId);
    const step = fc.record({
      // Short ranges, long ones, and ranges of whole months (March, April, both, half of March and April),
      // whose product sums are kept by month.
      range: fc.oneof(
        fc.record({ start: fc.integer({ min: 0, max: 30 }), length: fc.integer({ min: 1, max: 10 }) }),
        fc.record({ start: fc.integer({ min: 0, max: 30 }), length: fc.integer({ min: 30, max: 62 }) }),
        fc.constantFrom({ start: 0, length: 31 }, { start: 31, length: 30 }, { start: 0, length: 61 }, { start: 14, length: 47 }),
      ),
      // The previous step's range, row filters and attribution again: its whole months are then held, with their month rows.
      again: fc.oneof({ arbitrary: fc.constant(true), weight: 2 }, { arbitrary: fc.constant(false), weight: 1 }),
      channel: fc.option(fc.constantFrom(...channels), { nil: undefined, freq: 2 }),
      productIds: fc.oneof(
        { arbitrary: fc.constant(undefined), weight: 3 },
        { arbitrary: fc.uniqueArray(fc.constantFrom(...products), { minLength: 1, maxLength: 3 }), weight: 1 },
      ),
      source: fc.option(fc.constantFrom("conversion" as const, "first_touch" as const), { nil: undefined }),
      // A restatement makes every held day stale: one step in five, so that later steps still find days (and months) held.
      restate: fc.oneof(
        { arbitrary: fc.constant(undefined), weight: 4 },
        { arbitrary: fc.record({ day: fc.integer({ min: 0, max: 40 }), factor: fc.double({ min: 0.5, max: 2, noNaN: true }) }), weight: 1 },
      ),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 2, maxLength: 4 }), async (steps) => {
        reads.upstream.reset();
        await db.query("delete from rollup_days");
        let previous: Pick<(typeof steps)[number], "range" | "source"> | undefined;
        for (const step of steps) {
          const { channel, productIds, restate } = step;
          const { range, source } = step.again && previous ? previous : step;
          const { start, length } = range;
          previous = { range, source };
          if (restate) {
            reads.upstream.restate({ storeUrl: US_STORE, date: addDays(WINDOW_START, restate.day), factor: restate.factor });
            clock = new Date(clock.getTime() + 86_401_000); // every stored day is now due to be read again
          }
          const startDate = addDays(WINDOW_START, start);
          const filters: MetricsFilters = {
            startDate,
            endDate: addDays(startDate, length - 1),
            ...(channel ? { channel } : {}),
            ...(productIds ? { filterProductId: productIds.join(",") } : {}),
            ...(source ? { dimension_source: source } : {}),
          };
          const [{ answer }, expected] = await Promise.all([rollupRead(policy(), filters), fullRead(reads.client, filters)]);
          expect(answer).toEqual(expected);
        }
      }),
      { numRuns: 12 },
    );
  }, 120_000);

  it("reads only the missing days, in one request per run of consecutive days, and nothing for a range it holds", async () => {
    await rollupRead(policy(), { startDate: "2026-05-01", endDate: "2026-05-31" });
    await db.query(
      `delete from rollup_days where day between '2026-05-01' and '2026-05-04' or day between '2026-05-10' and '2026-05-14'
         or day = '2026-05-20'`,
    );
    const before = requests();
    const { read } = await rollupRead(policy(), { startDate: "2026-05-01", endDate: "2026-05-20" });
    // Missing: 1–4, 10–14 and 20: three runs (and the fill after it the same three).
    expect(requests() - before).toBe(6);
    expect(read).toMatchObject({ daysFromRollups: 10, daysFromUpstream: 10, upstreamRequests: 3 });
    const again = await rollupRead(policy(), { startDate: "2026-05-01", endDate: "2026-05-20", channel: "google" });
    expect(requests() - before).toBe(6);
    expect(again.read).toMatchObject({ daysFromRollups: 20, daysFromUpstream: 0, upstreamRequests: 0 });
    expect(again.answer).toEqual(await fullRead(reads.client, { startDate: "2026-05-01", endDate: "2026-05-20", channel: "google" }));
  });

  it("always reads today and the last ROLLUP_FRESH_DAYS days upstream, and reads a stored day again once it is stale", async () => {
    const today = clock.toISOString().slice(0, 10);
    const filters = { startDate: addDays(today, -9), endDate: today };
    await rollupRead(policy(), filters);
    const before = requests();
    const { read } = await rollupRead(policy(), filters);
    expect(requests() - before).toBe(1);
    // The store's today (New York's) plus three days back.
    expect(read.daysFromUpstream).toBe(4);
    const stored = await db.query<{ day: string }>("select to_char(day, 'YYYY-MM-DD') as day from rollup_days order by day desc limit 1");
    expect(stored[0]!.day < addDays(today, -3)).toBe(true);

    clock = new Date(clock.getTime() + 86_401_000);
    const stale = await rollupRead(policy(), filters);
    expect(stale.read.daysFromRollups).toBe(0);
    expect(stale.read.asOf).toEqual(clock);
  });

  it("records a restated day with what moved, and answers with the new figures", async () => {
    const filters = { startDate: "2026-10-01", endDate: "2026-10-05" };
    await rollupRead(policy(), filters);
    reads.upstream.restate({ storeUrl: US_STORE, date: "2026-10-03", factor: 1.5 });
    clock = new Date(clock.getTime() + 86_401_000);
    const { answer } = await rollupRead(policy(), filters);
    expect(answer).toEqual(await fullRead(reads.client, filters));
    const changes = await restatements(db, US_STORE);
    expect(changes).toHaveLength(1);
    const [change] = changes;
    expect(change).toMatchObject({ day: "2026-10-03", source: "conversion", currency: "USD" });
    expect(change!.revenue.change).toBeCloseTo(change!.revenue.before * 0.5, 0);
    expect(change!.orders.change).toBe(0);
    expect(change!.channels.length).toBeGreaterThan(0);
    expect(change!.channels[0]!.change).toBeGreaterThan(0);
    // Read again without a change: nothing new recorded.
    clock = new Date(clock.getTime() + 86_401_000);
    await rollupRead(policy(), filters);
    expect(await restatements(db, US_STORE)).toHaveLength(1);
  });

  it("shows a store's rollups and restatements to a reach holding the store only", async () => {
    await rollupRead(policy(), { startDate: "2026-08-01", endDate: "2026-08-02" });
    reads.upstream.restate({ storeUrl: US_STORE, date: "2026-08-01", factor: 1.5 });
    clock = new Date(clock.getTime() + 86_401_000);
    await rollupRead(policy(), { startDate: "2026-08-01", endDate: "2026-08-02" });
    const foreign = reachDb(owner, ["https://elsewhere.example"]);
    for (const table of ["rollup_days", "rollup_cells", "rollup_restatements"]) {
      expect((await db.query(`select * from ${table}`)).length, table).toBeGreaterThan(0);
      expect(await foreign.query(`select * from ${table}`), table).toEqual([]);
    }
    expect(await restatements(foreign, US_STORE)).toEqual([]);
  });

  it("answers a view of days a fill is reading without waiting for the fill (no claim, no wait)", async () => {
    const filters = { startDate: "2026-06-01", endDate: "2026-06-20" };
    reads.upstream.setFaults([{ route: "products", latencyMs: 1_500, times: 1 }]);
    let filled = false;
    const fill = fillDays(reads.client, { storeUrl: US_STORE, source: "conversion" }, ["2026-06-01"], policy()).then(() => (filled = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const read = await readRange(reads.client, US_STORE, filters, {}, policy());
    expect(filled).toBe(false);
    expect(read).toMatchObject({ daysFromRollups: 0, daysFromUpstream: 20 });
    await fill;
  });

  it("never finds a day restated when its fractional orders and units come back the same", async () => {
    const day = new DayCells("2026-10-20");
    for (const [orders, units] of [
      [0.1, 0.1],
      [0.2, 0.7],
    ] as const)
      day.add({ date: "2026-10-20", channel: "google", product_id: "p1", currency: "USD", orders, units, revenue: 10.1 });
    const scope = { storeUrl: US_STORE, source: "conversion" as const };
    await saveDays(db, scope, [dayWrite(day, true)], clock);
    expect(await saveDays(db, scope, [dayWrite(day, true)], new Date(clock.getTime() + 1000))).toBe(0);
    expect(await restatements(db, US_STORE)).toEqual([]);
  });

  it("reads upstream a held day that went between its look-up and its sums, never answering short", async () => {
    const range = { startDate: "2026-09-01", endDate: "2026-09-30" };
    await rollupRead(policy(), range);
    // The held days go (an eviction, a purge) right after the view looked them up, before its sums.
    const racing: Db = {
      ...db,
      transaction: async (fn, setup) => {
        await db.query("delete from rollup_days where day between '2026-09-01' and '2026-09-03'");
        return db.transaction(fn, setup);
      },
    };
    const filters = { startDate: "2026-09-01", endDate: "2026-09-04" };
    const read = await readRange(reads.client, US_STORE, filters, {}, { ...policy(), db: racing });
    const currency = read.summary.currency?.value ?? null;
    expect({ currency, ...read.summary.result(currency ? currencyDecimals(currency) : 2) }).toEqual(await fullRead(reads.client, filters));
    expect(read).toMatchObject({ daysFromRollups: 1, daysFromUpstream: 3, toFill: ["2026-09-01", "2026-09-02", "2026-09-03"] });
  });

  it("never stores the store's unfinished today, in its own zone, with ROLLUP_FRESH_DAYS 0", async () => {
    // 06:00 in New York (UTC−5): the 27th is today there, and the 28th already in UTC+14.
    clock = new Date("2026-11-27T11:00:00Z");
    await rollupRead({ ...policy(), freshDays: 0 }, { startDate: "2026-11-24", endDate: "2026-11-27" });
    const stored = await db.query<{ day: string }>("select to_char(day, 'YYYY-MM-DD') as day from rollup_days order by day");
    // The fill after the view stores November's closed days: up to the 26th.
    expect(stored.at(-1)).toEqual({ day: "2026-11-26" });
  });

  it("writes nothing to the held days on a warm view, and at most one row per month it shows", async () => {
    const filters = { startDate: "2026-04-01", endDate: "2026-05-31" };
    await rollupRead(policy(), filters);
    const versions = () =>
      db.query<{ day: string; version: string }>("select day::text as day, xmin::text as version from rollup_days order by day");
    const before = await versions();
    await rollupRead(policy(), filters);
    expect(await versions()).toEqual(before);
    expect(await db.query("select month::text from rollup_month_use order by month")).toEqual([
      { month: "2026-04-01" },
      { month: "2026-05-01" },
    ]);
    // Again within the hour: not a row written.
    const uses = () => db.query<{ version: string }>("select xmin::text as version from rollup_month_use order by month");
    const used = await uses();
    clock = new Date(clock.getTime() + 60_000);
    await rollupRead(policy(), filters);
    expect(await uses()).toEqual(used);
  });

  it("keeps nothing about the key in its tables", async () => {
    await rollupRead(policy(), { startDate: "2026-07-01", endDate: "2026-07-02" });
    for (const table of ["rollup_days", "rollup_cells", "rollup_claims", "rollup_restatements"]) {
      const rows = await acrossStores(owner, "a test of what the rollups keep", (tx) => tx.query(`select * from ${table}`));
      expect(JSON.stringify(rows)).not.toContain(ADMIN_KEY);
      expect(JSON.stringify(rows)).not.toContain(reads.client.keyIdentity);
    }
    expect((await rollupUsage(db)).days).toBe(31);
  });
});
