import { setTimeout as sleep } from "node:timers/promises";
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startDemoUpstream, type DemoUpstream } from "@/demo-upstream/server";
import type { Db } from "@/server/db/database";
import { openProductRows } from "@/server/metrics/product-rows";
import { upstreamClient, type UpstreamClient } from "@/server/upstream/client";
import { currencyDecimals } from "@/shared/format";
import type { MetricsFilters } from "@/shared/schemas/product-metrics-view";
import { fullRead } from "@/test/full-read";
import { ADMIN_KEY, US_STORE, useUpstream } from "@/test/harness";
import { openForSuite, storageBackends, type Location } from "@/test/databases";
import { acrossStores, reachDb } from "@/server/db/reach";
import { dimensionValuesSchema } from "@/shared/schemas/product-metrics";
import { readRange, rollupFilterOf, type RollupPolicy } from "./reader";
import { evictFilterKeys, rollupUsage } from "./bounds";
import { restatements } from "./restatements";

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

async function rollupRead(policy: RollupPolicy, filters: MetricsFilters) {
  const read = await readRange(client, US_STORE, filters, rollupFilterOf(filters)!, policy);
  await read.saved;
  const currency = read.summary.currency?.value ?? null;
  return { answer: { currency, ...read.summary.result(currency ? currencyDecimals(currency) : 2) }, read };
}

const requests = () => upstream.requestCounts().products;

/** What a view may filter rows by upstream, drawn from the window's own values. */
interface RowValues {
  countries: string[];
  deviceTypes: string[];
  os: string[];
  browsers: string[];
  ads: string[];
}

async function rowValues(startDate: string, endDate: string): Promise<RowValues> {
  const { data } = await client.json("dimensions", dimensionValuesSchema, {
    params: { storeUrl: US_STORE },
    query: { startDate, endDate },
  });
  const ads = new Set<string>();
  for await (const batch of (await openProductRows(client, US_STORE, { startDate, endDate })).batches)
    for (const row of batch) if (row.ad_id && ads.size < 6) ads.add(row.ad_id);
  return { countries: data.countries, deviceTypes: data.deviceTypes, os: data.os, browsers: data.browsers, ads: [...ads] };
}

/** Random row filters: each list a set of 1–3 values, named in a random order with stray spaces and repeats. */
function rowFiltersArbitrary(values: RowValues) {
  const list = (from: string[]) =>
    fc.option(
      fc
        .uniqueArray(fc.constantFrom(...from), { minLength: 1, maxLength: 3 })
        .chain((set) => fc.tuple(fc.constant(set), fc.shuffledSubarray(set, { minLength: 0, maxLength: 1 }), fc.boolean())),
      { nil: undefined, freq: 2 },
    );
  return fc.record({
    country: list(values.countries),
    device: list(values.deviceTypes),
    os: list(values.os),
    browser: list(values.browsers),
    adId: fc.option(fc.constantFrom(...values.ads), { nil: undefined, freq: 4 }),
  });
}
type DrawnRowFilters = ReturnType<typeof rowFiltersArbitrary> extends fc.Arbitrary<infer T> ? T : never;

/** The drawn filters as a query names them (shuffled, spaced, repeated), and as a set, for the test's own model of keys. */
function rowFiltersOf(drawn: DrawnRowFilters): { query: Partial<MetricsFilters>; set: string } {
  const named = (drawnList: [string[], string[], boolean] | undefined) => {
    if (!drawnList) return undefined;
    const [set, repeated, spaced] = drawnList;
    const items = [...set].reverse().concat(repeated);
    return items.map((item) => (spaced ? ` ${item} ` : item)).join(",");
  };
  const query: Partial<MetricsFilters> = {
    ...(drawn.country ? { filterCountry: named(drawn.country) } : {}),
    ...(drawn.device ? { filterDeviceType: named(drawn.device) } : {}),
    ...(drawn.os ? { filterOS: named(drawn.os) } : {}),
    ...(drawn.browser ? { filterBrowser: named(drawn.browser) } : {}),
    ...(drawn.adId ? { adId: drawn.adId } : {}),
  };
  const sorted = (drawnList: [string[], string[], boolean] | undefined) => (drawnList ? [...drawnList[0]].sort() : null);
  const set = JSON.stringify([sorted(drawn.country), sorted(drawn.device), sorted(drawn.os), sorted(drawn.browser), drawn.adId ?? null]);
  return { query, set };
}

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
    const reference = await fullRead(client, { startDate: WINDOW_START, endDate: addDays(WINDOW_START, 30) });
    const channels = reference.channels.map((channel) => channel.channel);
    const products = reference.products.map((product) => product.productId);
    const values = await rowValues(WINDOW_START, addDays(WINDOW_START, 30));
    const step = fc.record({
      rows: rowFiltersArbitrary(values),
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
        upstream.reset();
        await db.query("delete from rollup_days");
        let previous: Pick<(typeof steps)[number], "range" | "source" | "rows"> | undefined;
        for (const step of steps) {
          const { channel, productIds, restate } = step;
          const { range, source, rows } = step.again && previous ? previous : step;
          const { start, length } = range;
          previous = { range, source, rows };
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
            ...rowFiltersOf(rows).query,
          };
          const [{ answer }, expected] = await Promise.all([rollupRead(policy(), filters), fullRead(client, filters)]);
          expect(answer).toEqual(expected);
        }
      }),
      { numRuns: 12 },
    );
  }, 120_000);

  it("keeps each set of row filters under its own key: held days are never read again, another key's never reused", async () => {
    const reference = await fullRead(client, { startDate: WINDOW_START, endDate: addDays(WINDOW_START, 30) });
    const channels = reference.channels.map((channel) => channel.channel);
    const values = await rowValues(WINDOW_START, addDays(WINDOW_START, 30));
    const step = fc.record({
      start: fc.integer({ min: 0, max: 20 }),
      length: fc.integer({ min: 1, max: 8 }),
      channel: fc.option(fc.constantFrom(...channels), { nil: undefined }),
      source: fc.option(fc.constantFrom("conversion" as const, "first_touch" as const), { nil: undefined }),
      // A few sets of row filters per run, so that later steps come back to a key or meet another's days.
      rows: fc.nat({ max: 2 }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(rowFiltersArbitrary(values), { minLength: 3, maxLength: 3 }),
        fc.array(step, { minLength: 2, maxLength: 6 }),
        async (sets, steps) => {
          upstream.reset();
          await db.query("delete from rollup_days");
          // The test's own model: the days each (row filters as a set, attribution) holds.
          const held = new Map<string, Set<string>>();
          for (const { start, length, channel, source, rows } of steps) {
            const { query, set } = rowFiltersOf(sets[rows]!);
            const startDate = addDays(WINDOW_START, start);
            const days = Array.from({ length }, (_, i) => addDays(startDate, i));
            const filters: MetricsFilters = {
              startDate,
              endDate: addDays(startDate, length - 1),
              ...(channel ? { channel } : {}),
              ...(source ? { dimension_source: source } : {}),
              ...query,
            };
            const model = `${set} ${source ?? "conversion"}`;
            const mine = held.get(model) ?? new Set<string>();
            const before = requests();
            const [{ answer, read }, expected] = await Promise.all([rollupRead(policy(), filters), fullRead(client, filters)]);
            expect(answer).toEqual(expected);
            const wasHeld = days.filter((day) => mine.has(day)).length;
            expect(read).toMatchObject({ daysFromRollups: wasHeld, daysFromUpstream: length - wasHeld });
            expect(requests() - before - 1).toBe(read.upstreamRequests);
            for (const day of days) mine.add(day);
            held.set(model, mine);
          }
        },
      ),
      { numRuns: 10 },
    );
  }, 120_000);

  it("keeps a store's most recently used filtered keys and drops every day of the older ones", async () => {
    const range = { startDate: "2026-09-01", endDate: "2026-09-03" };
    for (const filterCountry of ["US", "CA", "GB"]) {
      await rollupRead(policy(), { ...range, filterCountry });
      clock = new Date(clock.getTime() + 1000);
    }
    await rollupRead(policy(), range);
    // US is used again: CA is now the least recently used.
    clock = new Date(clock.getTime() + 1000);
    await rollupRead(policy(), { ...range, filterCountry: "US" });
    expect(await evictFilterKeys(db, US_STORE, 2)).toEqual(["country=CA"]);
    const keys = await db.query<{ key: string; days: number }>(
      "select filter_key as key, count(*)::int as days from rollup_days group by 1 order by 1",
    );
    expect(keys).toEqual([
      { key: "", days: 3 },
      { key: "country=GB", days: 3 },
      { key: "country=US", days: 3 },
    ]);
    expect(await db.query("select distinct filter_key from rollup_cells where filter_key = 'country=CA'")).toEqual([]);
    // After a filtered read the bound is kept without being asked: ROLLUP_FILTER_KEYS of 1 leaves the key just read.
    clock = new Date(clock.getTime() + 1000);
    await rollupRead({ ...policy(), filterKeys: 1 }, { ...range, filterCountry: "FR" });
    expect(
      (await db.query<{ key: string }>("select distinct filter_key as key from rollup_days order by 1")).map((row) => row.key),
    ).toEqual(["", "country=FR"]);
  });

  it("does not lose a view's held days to the key bound while it reads its missing days", async () => {
    const live = (): RollupPolicy => ({ ...policy(), now: () => new Date() });
    const range = { startDate: "2026-09-01", endDate: "2026-09-03" };
    await rollupRead(live(), { ...range, filterCountry: "US" });
    await sleep(5);
    await rollupRead(live(), { ...range, filterCountry: "CA" });
    // The US view holds three days and reads a fourth slowly; meanwhile a GB view stores its key
    // with a bound of two keys. US, used by the view in flight, is not the one to go: CA is.
    upstream.setFaults([{ route: "products", latencyMs: 800, times: 1 }]);
    const usFilters = { startDate: "2026-09-01", endDate: "2026-09-04", filterCountry: "US" };
    const us = rollupRead(live(), usFilters);
    await sleep(300);
    await rollupRead({ ...live(), filterKeys: 2 }, { ...range, filterCountry: "GB" });
    const { answer, read } = await us;
    expect(read).toMatchObject({ daysFromRollups: 3, daysFromUpstream: 1 });
    expect(answer).toEqual(await fullRead(client, usFilters));
    const keys = await db.query<{ key: string }>("select distinct filter_key as key from rollup_days order by 1");
    expect(keys.map((row) => row.key)).toEqual(["country=GB", "country=US"]);
  });

  it("keeps a view with long filter lists under the digest of its key, and answers it as a full read", async () => {
    const filters = {
      startDate: "2026-09-10",
      endDate: "2026-09-11",
      filterCountry: ["US", ...Array.from({ length: 300 }, (_, i) => `X${i}`)].join(","),
    };
    const { answer } = await rollupRead(policy(), filters);
    expect(answer).toEqual(await fullRead(client, filters));
    expect(answer.totals.rows).toBeGreaterThan(0);
    const keys = await db.query<{ key: string }>("select distinct filter_key as key from rollup_cells");
    expect(keys).toEqual([{ key: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) }]);
    const again = await rollupRead(policy(), filters);
    expect(again.read).toMatchObject({ daysFromRollups: 2, daysFromUpstream: 0 });
  });

  it("records a restatement on the unfiltered key only, and drops the filtered keys' copies of the restated day", async () => {
    const range = { startDate: "2026-10-10", endDate: "2026-10-12" };
    await rollupRead(policy(), range);
    await rollupRead(policy(), { ...range, filterDeviceType: "mobile" });
    upstream.restate({ storeUrl: US_STORE, date: "2026-10-11", factor: 1.5 });
    clock = new Date(clock.getTime() + 86_401_000);
    // The filtered key reads its stale days again and takes the new figures without recording anything.
    const filtered = await rollupRead(policy(), { ...range, filterDeviceType: "mobile" });
    expect(filtered.answer).toEqual(await fullRead(client, { ...range, filterDeviceType: "mobile" }));
    expect(await restatements(db, US_STORE)).toEqual([]);
    // The unfiltered key finds the store-day restated, and the filtered key's copy of that day goes.
    await rollupRead(policy(), range);
    expect((await restatements(db, US_STORE)).map((change) => change.day)).toEqual(["2026-10-11"]);
    const mobileDays = await db.query<{ day: string }>(
      "select to_char(day, 'YYYY-MM-DD') as day from rollup_days where filter_key = 'device=mobile' order by 1",
    );
    expect(mobileDays.map((row) => row.day)).toEqual(["2026-10-10", "2026-10-12"]);
  });

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
    expect(again.answer).toEqual(await fullRead(client, { startDate: "2026-05-01", endDate: "2026-05-20", channel: "google" }));
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
      expect(first.answer).toEqual(await fullRead(client, filters));
      expect(second.answer).toEqual(await fullRead(client, { ...filters, channel: "google" }));
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
    expect(answer).toEqual(await fullRead(client, filters));
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
