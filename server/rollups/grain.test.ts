import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@/server/db/database";
import { currencyDecimals } from "@/shared/format";
import type { MetricsFilters } from "@/shared/schemas/product-metrics-view";
import { usStoreReadsPerFile } from "@/test/demo-upstream";
import { fullRead } from "@/test/full-read";
import { US_STORE } from "@/test/harness";
import { openForSuite, storageBackends, type Location } from "@/test/databases";
import { acrossStores, reachDb } from "@/server/db/reach";
import { readRange, rollupFilterOf, type RollupPolicy } from "./reader";
import { evictOverBudget } from "./bounds";
import { deleteDays } from "./repository";
import { fillDays } from "./fill";
import { buildMonths, daysInMonth, fullMonths } from "./grain";

const reads = usStoreReadsPerFile("req_rollup_grain_test");

const MARCH = { startDate: "2026-03-01", endDate: "2026-03-31" };
const SPRING = { startDate: "2026-03-01", endDate: "2026-04-30" };
const scope = { storeUrl: US_STORE, source: "conversion" as const };

it("finds the months every day of which is in a list", () => {
  expect(daysInMonth("2024-02-01")).toBe(29);
  expect(daysInMonth("2026-02-01")).toBe(28);
  const march = Array.from({ length: 31 }, (_, i) => `2026-03-${String(i + 1).padStart(2, "0")}`);
  expect(fullMonths(["2026-02-28", ...march, "2026-04-01"])).toEqual(["2026-03-01"]);
  expect(fullMonths(march.slice(1))).toEqual([]);
});

/** A promise and the function that resolves it: one step of a test that holds a transaction open. */
function gate(): [Promise<void>, () => void] {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return [opened, open];
}

describe.each(storageBackends())("the rollups' coarser grain on %s", (backend) => {
  let owner: Db;
  let db: Db;
  let location: Location;
  let close: () => Promise<void>;
  let clock: Date;
  const policy = (): RollupPolicy => ({ db, freshDays: 3, revalidateSeconds: 86_400, now: () => clock });
  const read = async (filters: MetricsFilters) => {
    const result = await readRange(reads.client, US_STORE, filters, rollupFilterOf(filters)!, policy());
    await fillDays(reads.client, { storeUrl: US_STORE, source: filters.dimension_source ?? "conversion" }, result.toFill, policy());
    const currency = result.summary.currency?.value ?? null;
    return { answer: { currency, ...result.summary.result(currency ? currencyDecimals(currency) : 2) }, result };
  };
  const months = async (filterKey = "") =>
    (
      await db.query<{ month: string }>(
        "select distinct to_char(month, 'YYYY-MM-DD') as month from rollup_product_months where filter_key = $1 order by 1",
        [filterKey],
      )
    ).map((row) => row.month);

  beforeAll(async () => {
    ({ db: owner, location, close } = await openForSuite(backend));
    db = reachDb(owner, [US_STORE]);
  });
  afterAll(() => close());
  beforeEach(async () => {
    reads.upstream.reset();
    clock = new Date("2026-11-27T08:00:00Z");
    await db.query("delete from rollup_days");
  });

  it("keeps a day's sums by channel with its cells, and a whole month's sums by product once every day of it is held", async () => {
    // The fills after the view store March and April whole, and build both months' product sums.
    await read({ startDate: "2026-03-05", endDate: "2026-04-10" });
    expect(await months()).toEqual(["2026-03-01", "2026-04-01"]);
    const [channels] = await db.query<{ rows: number; revenue: string }>(
      "select sum(row_count)::int as rows, sum(revenue)::text as revenue from rollup_day_channels",
    );
    const [cells] = await db.query<{ rows: number; revenue: string }>(
      "select sum(row_count)::int as rows, sum(revenue)::text as revenue from rollup_cells",
    );
    expect(channels).toEqual(cells);
  });

  it("answers a warm view of whole months from the month rows and the day × channel sums, without reading a cell", async () => {
    await read(SPRING);
    expect(await months()).toEqual(["2026-03-01", "2026-04-01"]);
    const warm = await read(SPRING);
    expect(warm.result.storedRows).toMatchObject({ cells: 0 });
    expect(warm.result.storedRows.productMonths).toBeGreaterThan(0);
    expect(warm.result.storedRows.dayChannels).toBeGreaterThan(0);
    expect(warm.answer).toEqual(await fullRead(reads.client, SPRING));
    // A range with partial months: March's row, and the cells of the days of April it covers.
    const partial = { startDate: "2026-03-01", endDate: "2026-04-12" };
    const mixed = await read(partial);
    expect(mixed.result.storedRows.cells).toBeGreaterThan(0);
    expect(mixed.answer).toEqual(await fullRead(reads.client, partial));
    // A channel filter reads the products from the cells, a product filter everything.
    for (const filters of [
      { ...SPRING, channel: "google" },
      {
        ...SPRING,
        filterProductId: warm.answer.products
          .slice(0, 2)
          .map((product) => product.productId)
          .join(","),
      },
    ]) {
      const filtered = await read(filters);
      expect(filtered.result.storedRows.productMonths).toBe(0);
      expect(filtered.answer).toEqual(await fullRead(reads.client, filters));
    }
  });

  it("drops a month's row when one of its days is rewritten, restated or deleted, and builds it again", async () => {
    await read(MARCH);
    expect(await months()).toEqual(["2026-03-01"]);
    // A view marks the days used: the row stays.
    await read(MARCH);
    expect(await months()).toEqual(["2026-03-01"]);
    // A day read again and restated: the row goes with the old day, and is built again after the new one is written.
    reads.upstream.restate({ storeUrl: US_STORE, date: "2026-03-10", factor: 1.5 });
    await db.query("update rollup_days set filled_at = filled_at - interval '2 days' where day = '2026-03-10'");
    expect(await months()).toEqual([]);
    const restated = await read(MARCH);
    expect(restated.result.daysFromUpstream).toBe(1);
    expect(await months()).toEqual(["2026-03-01"]);
    const after = await read(MARCH);
    expect(after.result.storedRows.cells).toBe(0);
    expect(after.answer).toEqual(await fullRead(reads.client, MARCH));
    // A day forgotten.
    await deleteDays(db, scope, ["2026-03-31"]);
    expect(await months()).toEqual([]);
  });

  it("builds a whole month found without its row on the month's next fill", async () => {
    await read(MARCH);
    await db.query("delete from rollup_product_months");
    const first = await read(MARCH);
    expect(first.result.storedRows.productMonths).toBe(0);
    expect(await months()).toEqual([]);
    await fillDays(reads.client, { storeUrl: US_STORE, source: "conversion" }, ["2026-03-01"], policy());
    expect(await months()).toEqual(["2026-03-01"]);
    const second = await read(MARCH);
    expect(second.result.storedRows.cells).toBe(0);
    expect(second.answer).toEqual(first.answer);
  });

  it("drops the month rows of days evicted by the budget", async () => {
    await read(MARCH);
    expect(await months()).toEqual(["2026-03-01"]);
    await acrossStores(owner, "a test of the daily eviction", (tx) => evictOverBudget(tx, 0));
    expect(await months()).toEqual([]);
    expect(await db.query("select 1 from rollup_day_channels")).toEqual([]);
  });

  it.runIf(backend === "postgres")(
    "never keeps a month row built while one of its days is being rewritten (two connections)",
    async () => {
      await read(MARCH);
      await db.query("delete from rollup_product_months");
      const other = reachDb(await location.open(), [US_STORE]);
      try {
        // A rewrite in flight (saveDays deletes a day before writing it again): the build skips the
        // locked day, counts the month short, and builds nothing, without waiting for the writer.
        const [holding, release] = gate();
        const [isLocked, locked] = gate();
        const rewrite = other.transaction(async (tx) => {
          await tx.query("delete from rollup_days where day = '2026-03-15'");
          locked();
          await holding;
        });
        await isLocked;
        const started = Date.now();
        expect(await buildMonths(db, scope, ["2026-03-01"])).toEqual([]);
        expect(Date.now() - started).toBeLessThan(2_000);
        release();
        await rewrite;
        expect(await months()).toEqual([]);

        // A build in flight (its days locked for share): a rewrite of one of them waits for it, and
        // its delete then drops the month row just built.
        await read(MARCH);
        await db.query("delete from rollup_product_months");
        const [built, building] = gate();
        const [finishing, finish] = gate();
        const build = db.transaction(async (tx) => {
          await tx.query("select day from rollup_days where day >= '2026-03-01' and day < '2026-04-01' for share");
          await tx.query(
            `insert into rollup_product_months (store_url, source, filter_key, month, product_id, row_count, orders, units, revenue,
               first_key, cells, names, skus)
             values ($1, 'conversion', '', '2026-03-01', 'prod_x', 1, 1, 1, 1, 0, 1, 0, 0)`,
            [US_STORE],
          );
          building();
          await finishing;
        });
        await built;
        let rewritten = false;
        const rewriting = other.query("delete from rollup_days where day = '2026-03-20'").then(() => (rewritten = true));
        await sleep(300);
        expect(rewritten).toBe(false);
        finish();
        await build;
        await rewriting;
        expect(await months()).toEqual([]);
      } finally {
        await other.close();
      }
    },
    30_000,
  );
});
