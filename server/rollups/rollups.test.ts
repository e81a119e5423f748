import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startDemoUpstream, type DemoUpstream } from "@/demo-upstream/server";
import type { Db } from "@/server/db/database";
import { ProductMetricsAggregator } from "@/server/metrics/aggregate";
import { openProductRows } from "@/server/metrics/product-rows";
import { upstreamClient, type UpstreamClient } from "@/server/upstream/client";
import { currencyDecimals } from "@/shared/format";
import type { MetricsFilters } from "@/shared/schemas/product-metrics-view";
import { ADMIN_KEY, US_STORE, useUpstream } from "@/test/harness";
import { openForSuite, storageBackends, type Location } from "@/test/databases";
import { acrossStores, reachDb } from "@/server/db/reach";
import { readRange, rollupFilterOf, type RollupPolicy } from "./reader";
import { restatements, rollupUsage } from "./repository";

const DAY_MS = 86_400_000;
const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const WINDOW_START = "2026-03-01";

let upstream: DemoUpstream;
let client: UpstreamClient;

beforeAll(async () => {
  upstream = await startDemoUpstream({ port: 0 });
  useUpstream(upstream.baseUrl);
  client = upstreamClient({ apiKey: ADMIN_KEY, requestId: "req_rollup_test" });
});
afterAll(() => upstream.close());

/** The reference: every raw row of the range read and summed, as the dashboard did without rollups. */
async function fullRead(filters: MetricsFilters) {
  const rows = await openProductRows(client, US_STORE, filters);
  const aggregator = new ProductMetricsAggregator();
  for await (const batch of rows.batches) for (const row of batch) aggregator.add(row);
  const decimals = aggregator.currency ? currencyDecimals(aggregator.currency) : 2;
  return { currency: aggregator.currency, ...aggregator.result(decimals) };
}

async function rollupRead(policy: RollupPolicy, filters: MetricsFilters) {
  const read = await readRange(client, US_STORE, filters, rollupFilterOf(filters)!, policy);
  await read.saved;
  const currency = read.summary.currency?.value ?? null;
  return { answer: { currency, ...read.summary.result(currency ? currencyDecimals(currency) : 2) }, read };
}

const requests = () => upstream.requestCounts().products;

describe.each(storageBackends())("day rollups on %s", (backend) => {
  // The owner's handle (it reads no row of the rollup tables), and the store's own reach.
  let owner: Db;
  let db: Db;
  let location: Location;
  let close: () => Promise<void>;
  let clock: Date;
  const policy = (): RollupPolicy => ({
    db,
    freshDays: 3,
    revalidateSeconds: 86_400,
    claimHoldMs: 30_000,
    pollMs: 20,
    now: () => clock,
  });
  beforeAll(async () => {
    ({ db: owner, location, close } = await openForSuite(backend));
    db = reachDb(owner, [US_STORE]);
  });
  afterAll(() => close());
  beforeEach(async () => {
    upstream.reset();
    clock = new Date("2026-11-27T08:00:00Z");
    await db.query("delete from rollup_days");
    await db.query("delete from rollup_claims");
    await db.query("delete from rollup_restatements");
  });

  it("answers random ranges, filters and restatements exactly as full reads of the raw rows", async () => {
    const reference = await fullRead({ startDate: WINDOW_START, endDate: addDays(WINDOW_START, 30) });
    const channels = reference.channels.map((channel) => channel.channel);
    const products = reference.products.map((product) => product.productId);
    const step = fc.record({
      start: fc.integer({ min: 0, max: 30 }),
      length: fc.integer({ min: 1, max: 10 }),
      channel: fc.option(fc.constantFrom(...channels), { nil: undefined }),
      productIds: fc.option(fc.uniqueArray(fc.constantFrom(...products), { minLength: 1, maxLength: 3 }), { nil: undefined }),
      source: fc.option(fc.constantFrom("conversion" as const, "first_touch" as const), { nil: undefined }),
      restate: fc.option(fc.record({ day: fc.integer({ min: 0, max: 40 }), factor: fc.double({ min: 0.5, max: 2, noNaN: true }) }), {
        nil: undefined,
      }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 4 }), async (steps) => {
        upstream.reset();
        await db.query("delete from rollup_days");
        for (const { start, length, channel, productIds, source, restate } of steps) {
          if (restate) {
            upstream.restate({ storeUrl: US_STORE, date: addDays(WINDOW_START, restate.day), factor: restate.factor });
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
          const [{ answer }, expected] = await Promise.all([rollupRead(policy(), filters), fullRead(filters)]);
          expect(answer).toEqual(expected);
        }
      }),
      { numRuns: 12 },
    );
  }, 120_000);

  it("reads only the missing days, in one request per run of consecutive days, and nothing for a range it holds", async () => {
    await rollupRead(policy(), { startDate: "2026-05-05", endDate: "2026-05-09" });
    await rollupRead(policy(), { startDate: "2026-05-15", endDate: "2026-05-19" });
    const before = requests();
    const { read } = await rollupRead(policy(), { startDate: "2026-05-01", endDate: "2026-05-20" });
    // Missing: 1–4, 10–14 and 20: three runs.
    expect(requests() - before).toBe(3);
    expect(read).toMatchObject({ daysFromRollups: 10, daysFromUpstream: 10, upstreamRequests: 3 });
    const again = await rollupRead(policy(), { startDate: "2026-05-01", endDate: "2026-05-20", channel: "google" });
    expect(requests() - before).toBe(3);
    expect(again.read).toMatchObject({ daysFromRollups: 20, daysFromUpstream: 0, upstreamRequests: 0 });
    expect(again.answer).toEqual(await fullRead({ startDate: "2026-05-01", endDate: "2026-05-20", channel: "google" }));
  });

  it("two instances asked for the same missing days at once read the upstream once", async () => {
    // A second connection plays the second instance where the backend allows two (PGlite is one process's).
    const other = backend === "postgres" ? await location.open() : owner;
    try {
      upstream.setFaults([{ route: "products", latencyMs: 300 }]);
      const filters = { startDate: "2026-06-01", endDate: "2026-06-20" };
      const before = requests();
      const [first, second] = await Promise.all([
        rollupRead(policy(), filters),
        rollupRead({ ...policy(), db: reachDb(other, [US_STORE]) }, { ...filters, channel: "google" }),
      ]);
      expect(requests() - before).toBe(1);
      expect(first.read.upstreamRequests + second.read.upstreamRequests).toBe(1);
      upstream.setFaults([]);
      expect(first.answer).toEqual(await fullRead(filters));
      expect(second.answer).toEqual(await fullRead({ ...filters, channel: "google" }));
      expect(await db.query("select * from rollup_claims")).toEqual([]);
    } finally {
      if (other !== owner) await other.close();
    }
  });

  it("takes over days whose claim ran out (an instance that stopped mid-read)", async () => {
    await db.query(
      `insert into rollup_claims (store_url, source, day, claimed_until)
       values ($1, 'conversion', '2026-06-03', $2), ($1, 'conversion', '2026-06-04', $3)`,
      [US_STORE, new Date(clock.getTime() - 1000), new Date(clock.getTime() + 150)],
    );
    const started = Date.now();
    const { read } = await rollupRead({ ...policy(), now: () => new Date() }, { startDate: "2026-06-01", endDate: "2026-06-05" });
    expect(read.daysFromUpstream).toBe(5);
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it("always reads today and the last ROLLUP_FRESH_DAYS days upstream, and reads a stored day again once it is stale", async () => {
    const today = clock.toISOString().slice(0, 10);
    const filters = { startDate: addDays(today, -9), endDate: today };
    await rollupRead(policy(), filters);
    const before = requests();
    const { read } = await rollupRead(policy(), filters);
    expect(requests() - before).toBe(1);
    // Today plus three days back, plus the day by which the furthest-ahead zone leads UTC.
    expect(read.daysFromUpstream).toBeGreaterThanOrEqual(4);
    expect(read.daysFromUpstream).toBeLessThanOrEqual(5);
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
    upstream.restate({ storeUrl: US_STORE, date: "2026-10-03", factor: 1.5 });
    clock = new Date(clock.getTime() + 86_401_000);
    const { answer } = await rollupRead(policy(), filters);
    expect(answer).toEqual(await fullRead(filters));
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
    upstream.restate({ storeUrl: US_STORE, date: "2026-08-01", factor: 1.5 });
    clock = new Date(clock.getTime() + 86_401_000);
    await rollupRead(policy(), { startDate: "2026-08-01", endDate: "2026-08-02" });
    const foreign = reachDb(owner, ["https://elsewhere.example"]);
    for (const table of ["rollup_days", "rollup_cells", "rollup_restatements"]) {
      expect((await db.query(`select * from ${table}`)).length, table).toBeGreaterThan(0);
      expect(await foreign.query(`select * from ${table}`), table).toEqual([]);
    }
    expect(await restatements(foreign, US_STORE)).toEqual([]);
  });

  it("keeps nothing about the key in its tables", async () => {
    await rollupRead(policy(), { startDate: "2026-07-01", endDate: "2026-07-02" });
    for (const table of ["rollup_days", "rollup_cells", "rollup_claims", "rollup_restatements"]) {
      const rows = await acrossStores(owner, "a test of what the rollups keep", (tx) => tx.query(`select * from ${table}`));
      expect(JSON.stringify(rows)).not.toContain(ADMIN_KEY);
      expect(JSON.stringify(rows)).not.toContain(client.keyIdentity);
    }
    expect((await rollupUsage(db)).days).toBe(2);
  });
});
