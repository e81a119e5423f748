import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startDemoUpstream, type DemoUpstream } from "@/demo-upstream/server";
import type { Db } from "@/server/db/database";
import { reachDb } from "@/server/db/reach";
import { daysOf, type RollupPolicy } from "@/server/rollups/reader";
import { fillDays } from "@/server/rollups/fill";
import { upstreamClient, type UpstreamClient } from "@/server/upstream/client";
import type { AlertRuleInput } from "@/shared/schemas/alert";
import type { MetricsFilters } from "@/shared/schemas/product-metrics-view";
import { FACEBOOK_ORDERS_DROP } from "@/test/alert-rules";
import { ADMIN_KEY, US_STORE, useUpstream } from "@/test/harness";
import { openForSuite, storageBackends } from "@/test/databases";
import { checkRule, lastCompletePeriod } from "./check";
import { RunReads, type PeriodSums, type Summary } from "./reads";

const DAY_MS = 86_400_000;
const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const WINDOW_START = "2026-03-01";

let upstream: DemoUpstream;
let client: UpstreamClient;
/** The products requests the checks make, by their query. */
let queries: { startDate: string; endDate: string }[];

beforeAll(async () => {
  upstream = await startDemoUpstream({ port: 0 });
  useUpstream(upstream.baseUrl);
  const plain = upstreamClient({ apiKey: ADMIN_KEY, requestId: "req_alert_rollups", readOnly: true });
  client = {
    ...plain,
    send: (endpoint, request) => {
      if (endpoint === "products") queries.push(request?.query as { startDate: string; endDate: string });
      return plain.send(endpoint, request);
    },
  };
});
afterAll(() => upstream.close());

/** Sums to the cent (the rows' own precision), so that adding the same rows in another order compares equal. */
const cents = (sums: { revenue: number; orders: number; units: number }) => ({ ...sums, revenue: Math.round(sums.revenue * 100) / 100 });
function days(summary: Summary) {
  const out: Record<string, unknown> = {};
  const sorted = (map: Map<string, PeriodSums["total"]>) =>
    Object.fromEntries([...map].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, cents(v)]));
  for (const [key, period] of summary.periods) {
    if (key.includes(" ")) continue; // The raw read also sums hours; a daily check reads days only.
    out[key] = { total: cents(period.total), channels: sorted(period.channels), products: sorted(period.products) };
  }
  return out;
}

describe.each(storageBackends())("alert checks through the day rollups on %s", (backend) => {
  let db: Db;
  let close: () => Promise<void>;
  let clock: Date;
  const policy = (): RollupPolicy => ({ db, freshDays: 3, revalidateSeconds: 86_400, now: () => clock });

  beforeAll(async () => {
    const opened = await openForSuite(backend);
    close = opened.close;
    db = reachDb(opened.db, [US_STORE]);
  });
  afterAll(() => close());
  beforeEach(async () => {
    upstream.reset();
    queries = [];
    clock = new Date("2026-11-27T08:00:00Z");
    await db.query("delete from rollup_days");
  });

  it("sums each day, by channel and by product, as the raw rows do, for random ranges, filters and both attributions", async () => {
    const reference = await new RunReads().summary(client, US_STORE, { startDate: WINDOW_START, endDate: addDays(WINDOW_START, 20) });
    const channels = [...new Set([...reference.periods.values()].flatMap((period) => [...period.channels.keys()]))];
    const products = [...new Set([...reference.periods.values()].flatMap((period) => [...period.products.keys()]))].slice(0, 40);
    const step = fc.record({
      start: fc.integer({ min: 0, max: 40 }),
      length: fc.integer({ min: 1, max: 20 }),
      channel: fc.option(fc.constantFrom(...channels), { nil: undefined }),
      productIds: fc.option(fc.uniqueArray(fc.constantFrom(...products), { minLength: 1, maxLength: 3 }), { nil: undefined }),
      source: fc.constantFrom("conversion" as const, "first_touch" as const),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 3 }), async (steps) => {
        await db.query("delete from rollup_days");
        // Each step a new run, as each scheduled check is: later steps find days the earlier ones stored.
        for (const { start, length, channel, productIds, source } of steps) {
          const startDate = addDays(WINDOW_START, start);
          const filters: MetricsFilters = {
            startDate,
            endDate: addDays(startDate, length - 1),
            dimension_source: source,
            ...(channel ? { channel } : {}),
            ...(productIds ? { filterProductId: productIds.join(",") } : {}),
          };
          const reads = new RunReads(policy());
          const [fromRollups, raw] = await Promise.all([
            reads.daySummary(client, US_STORE, filters),
            new RunReads().summary(client, US_STORE, filters),
          ]);
          expect(days(fromRollups)).toEqual(days(raw));
          // The store's currency, even when the filter keeps no row (the raw read then names none).
          expect(fromRollups.currency).toBe(
            raw.currency ??
              (await new RunReads().summary(client, US_STORE, { ...filters, channel: undefined, filterProductId: undefined })).currency,
          );
        }
      }),
      { numRuns: 10 },
    );
  }, 180_000);

  it("reads only the fresh days upstream on a second check, and its judgement is the raw rows' one", async () => {
    const rule = FACEBOOK_ORDERS_DROP;
    const storeRule: AlertRuleInput = { ...rule, name: "Store revenue", metric: "revenue", target: { kind: "store" } };
    const context = (reads: RunReads) => ({ upstream: client, reads, storeUrl: US_STORE, savedViewSearch: null });
    const now = clock;

    // First check: cold, one request for the eight weeks and the judged day, shared by both rules.
    const first = new RunReads(policy());
    const [checked] = await Promise.all([checkRule(rule, context(first), now), checkRule(storeRule, context(first), now)]);
    const products = queries.filter((query) => query.startDate);
    expect(products).toHaveLength(1);
    const period = lastCompletePeriod("day", "America/New_York", now);
    expect(checked.period).toBe(period);
    expect(products[0]).toMatchObject({ startDate: addDays(period, -56), endDate: period });
    const raw = await checkRule(rule, context(new RunReads(null)), now);
    expect(checked).toEqual(raw);

    // The fills the first check leaves (a job's work), run here.
    await fillDays(client, { storeUrl: US_STORE, source: "conversion" }, daysOf(addDays(period, -56), period), policy());
    await waitForStoredDays(db, 54);
    queries = [];
    const second = new RunReads(policy());
    const [again] = await Promise.all([checkRule(rule, context(second), now), checkRule(storeRule, context(second), now)]);
    expect(again).toEqual(raw);
    // One request, for the fresh days only: the store's today and its last three days.
    expect(queries).toHaveLength(1);
    const fresh = queries[0]!;
    const freshDays = (Date.parse(fresh.endDate) - Date.parse(fresh.startDate)) / DAY_MS + 1;
    expect(fresh.endDate).toBe(period);
    expect(freshDays).toBeGreaterThanOrEqual(1);
    expect(freshDays).toBeLessThanOrEqual(4);
    expect(fresh.startDate >= addDays(clock.toISOString().slice(0, 10), -3)).toBe(true);
  });

  it("reads a rule filtered by country upstream with the filter, and sums the filtered rows", async () => {
    const filters = { startDate: "2026-05-01", endDate: "2026-05-10", filterCountry: "US" } as MetricsFilters;
    const [viaRollups, raw] = await Promise.all([
      new RunReads(policy()).daySummary(client, US_STORE, filters),
      new RunReads().summary(client, US_STORE, filters),
    ]);
    expect(days(viaRollups)).toEqual(days(raw));
    expect(queries.length).toBeGreaterThan(0);
    expect(queries.every((query) => (query as MetricsFilters).filterCountry === "US")).toBe(true);
    expect(await db.query("select 1 from rollup_days")).toEqual([]);
  });
});

async function waitForStoredDays(db: Db, atLeast: number) {
  for (let waited = 0; waited < 20_000; waited += 50) {
    const [row] = await db.query<{ n: number }>("select count(*)::int as n from rollup_days");
    if (row!.n >= atLeast) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the first check's days were not stored");
}
