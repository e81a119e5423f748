import "server-only";
import { randomUUID } from "node:crypto";
import type { Db } from "@/server/db/database";
import type { DimensionSource } from "@/shared/schemas/product-metrics";
import { currencyDecimals } from "@/shared/format";
import { columnLiteral, type DayWrite } from "./cells";
import type { CellFilter } from "./range-summary";
import { writeDayChannels } from "./grain";

/**
 * The statements that read and write a store's rollup days and cells (the bounds are in
 * bounds.ts, the restatements' list in restatements.ts). The tables are under row-level security
 * (migration 0013): a store's statements run on the caller's handle, whose reach must hold the
 * store (the route's reach, or the store's own for background work), and each names its store.
 */
export interface RollupScope {
  storeUrl: string;
  source: DimensionSource;
  /** The view's upstream-only row filters as a key (filter-key.ts); '' or absent: the unfiltered read. */
  filterKey?: string;
}

const keyOf = (scope: RollupScope) => scope.filterKey ?? "";

/** Channels and products kept in a restatement: the ones that account for most of it. */
const RESTATEMENT_TOP = 5;

/** The days of a range the rollups hold, with when each was read. */
export async function storedDays(db: Db, scope: RollupScope, startDate: string, endDate: string): Promise<Map<string, Date>> {
  const rows = await db.query<{ day: string; filledAt: Date }>(
    `select to_char(day, 'YYYY-MM-DD') as day, filled_at as "filledAt" from rollup_days
     where store_url = $1 and source = $2 and filter_key = $5 and day between $3 and $4`,
    [scope.storeUrl, scope.source, startDate, endDate, keyOf(scope)],
  );
  return new Map(rows.map((row) => [row.day, new Date(row.filledAt)]));
}

/** A month's last use is written again only once it is this old: a warm view repeated writes nothing. */
const USE_GRAIN_MS = 3_600_000;

/**
 * Marks the months of a view's held days as used now (at most one row per month, and none when
 * its last use is under an hour old): what the daily eviction orders by (bounds.ts).
 */
export async function markMonthsUsed(db: Db, scope: RollupScope, days: string[], now: Date): Promise<void> {
  const months = [...new Set(days.map((day) => `${day.slice(0, 7)}-01`))];
  if (months.length === 0) return;
  await db.query(
    `insert into rollup_month_use (store_url, source, filter_key, month, used_at)
     select $1, $2, $3, m, $5 from unnest($4::date[]) as m
     on conflict (store_url, source, filter_key, month) do update set used_at = excluded.used_at
       where rollup_month_use.used_at < $6`,
    [scope.storeUrl, scope.source, keyOf(scope), months, now, new Date(now.getTime() - USE_GRAIN_MS)],
  );
}

/** Days per insert: each is one row of 11 arrays (rollup_day_cells), made off the event loop (cells.ts, dayWrite). */
const DAYS_PER_INSERT = 16;
const CELL_ARRAYS = ["text", "text", "text", "text", "int", "text", "int", "int", "numeric", "numeric", "numeric"];

async function insertCells(tx: Db, scope: RollupScope, days: DayWrite[]): Promise<void> {
  const withCells = days.filter((day) => day.cellCount > 0);
  for (let start = 0; start < withCells.length; start += DAYS_PER_INSERT) {
    const batch = withCells.slice(start, start + DAYS_PER_INSERT);
    const params: unknown[] = [scope.storeUrl, scope.source, keyOf(scope)];
    const rows = batch.map((day) => {
      params.push(day.day);
      const placeholders = [`$${params.length}::date`];
      CELL_ARRAYS.forEach((type, column) => {
        // The literal's UTF-8 bytes, sent as they are (bytea) and read as an array by the server.
        params.push(columnLiteral(day, column));
        placeholders.push(`convert_from($${params.length}::bytea, 'UTF8')::${type}[]`);
      });
      return `(${placeholders.join(", ")})`;
    });
    await tx.query(
      `insert into rollup_day_cells (store_url, source, filter_key, day, channel, product_id, product_name, product_sku, first_row,
         currency, currency_row, row_count, orders, units, revenue)
       select $1, $2, $3, v.* from (values ${rows.join(", ")}) as v`,
      params,
    );
  }
}

type DayTotals = { day: string; currency: string | null; orders: number; units: number; revenue: number };

const moved = (before: number, after: number, decimals: number) => {
  const factor = 10 ** decimals;
  return Math.round(after * factor) !== Math.round(before * factor);
};

/** Revenue change by key, largest first, from the old cells and the new ones (none named when the new cells were not kept). */
async function changesBy(tx: Db, scope: RollupScope, day: DayWrite, column: "channel" | "product_id", decimals: number) {
  if (!day.cells) return [];
  const old = await tx.query<{ key: string; revenue: number }>(
    `select ${column} as key, sum(revenue)::float8 as revenue from rollup_cells
     where store_url = $1 and source = $2 and filter_key = $4 and day = $3 group by ${column}`,
    [scope.storeUrl, scope.source, day.day, keyOf(scope)],
  );
  const change = new Map<string, { change: number; name: string | null }>();
  for (const row of old) change.set(row.key, { change: -row.revenue, name: null });
  for (const cell of day.cells.values()) {
    const key = column === "channel" ? cell.channel : cell.productId;
    const found = change.get(key) ?? { change: 0, name: null };
    found.change += cell.revenue;
    if (column === "product_id") found.name ??= cell.name;
    change.set(key, found);
  }
  const factor = 10 ** decimals;
  return [...change.entries()]
    .map(([key, found]) => ({ key, name: found.name, change: Math.round(found.change * factor) / factor }))
    .filter((entry) => entry.change !== 0)
    .sort((a, b) => Math.abs(b.change) - Math.abs(a.change) || a.key.localeCompare(b.key))
    .slice(0, RESTATEMENT_TOP);
}

/**
 * Stores days read whole from the upstream, replacing what was held.
 * On the unfiltered key, a day held before whose figures moved is recorded as a restatement
 * (a store-day's), and the filtered keys' copies of that day are dropped so that they are read
 * again; a filtered key's days just take the new figures. Returns how many were restated.
 */
export async function saveDays(db: Db, scope: RollupScope, days: DayWrite[], now: Date): Promise<number> {
  if (days.length === 0) return 0;
  const names = days.map((day) => day.day);
  const key = keyOf(scope);
  return db.transaction(async (tx) => {
    const previous =
      key === ""
        ? await tx.query<DayTotals>(
            `select to_char(day, 'YYYY-MM-DD') as day, currency, orders::float8 as orders, units::float8 as units, revenue::float8 as revenue
             from rollup_days where store_url = $1 and source = $2 and filter_key = '' and day = any($3::date[])`,
            [scope.storeUrl, scope.source, names],
          )
        : [];
    const before = new Map(previous.map((row) => [row.day, row]));
    const restatedDays: string[] = [];
    for (const day of days) {
      const old = before.get(day.day);
      if (!old) continue;
      const now_ = { ...day.totals, currency: day.currency };
      const decimals = currencyDecimals(now_.currency ?? old.currency);
      // Orders and units to the places a restatement shows them (restatements.ts), never compared to the last bit.
      if (!moved(old.revenue, now_.revenue, decimals) && !moved(old.orders, now_.orders, 6) && !moved(old.units, now_.units, 6)) continue;
      const [channels, products] = [
        await changesBy(tx, scope, day, "channel", decimals),
        await changesBy(tx, scope, day, "product_id", decimals),
      ];
      await tx.query(
        `insert into rollup_restatements (id, store_url, source, day, detected_at, currency, revenue_before, revenue_after,
           orders_before, orders_after, units_before, units_after, channels, products)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
        [
          `restated_${randomUUID()}`,
          scope.storeUrl,
          scope.source,
          day.day,
          now,
          now_.currency ?? old.currency,
          old.revenue,
          now_.revenue,
          old.orders,
          now_.orders,
          old.units,
          now_.units,
          JSON.stringify(channels.map(({ key, change }) => ({ key, change }))),
          JSON.stringify(products),
        ],
      );
      restatedDays.push(day.day);
    }
    if (restatedDays.length > 0) {
      // The store-day changed: every filtered key's copy of it (either attribution) is out of date.
      await tx.query("delete from rollup_days where store_url = $1 and filter_key <> '' and day = any($2::date[])", [
        scope.storeUrl,
        restatedDays,
      ]);
    }
    await tx.query("delete from rollup_days where store_url = $1 and source = $2 and filter_key = $4 and day = any($3::date[])", [
      scope.storeUrl,
      scope.source,
      names,
      key,
    ]);
    await tx.query(
      `insert into rollup_days (store_url, source, filter_key, day, currency, row_count, orders, units, revenue, bytes, filled_at, used_at)
       select $1, $2, $11, * , $10::timestamptz, $10::timestamptz
       from unnest($3::date[], $4::text[], $5::int[], $6::numeric[], $7::numeric[], $8::numeric[], $9::int[])`,
      [
        scope.storeUrl,
        scope.source,
        names,
        days.map((day) => day.currency),
        days.map((day) => day.rows),
        // As the text JavaScript writes each number, which numeric keeps exactly (through float8 it kept 15 digits).
        days.map((day) => String(day.totals.orders)),
        days.map((day) => String(day.totals.units)),
        days.map((day) => String(day.totals.revenue)),
        // Each row of the day and of its cells repeats the key.
        days.map((day) => day.bytes + key.length * (1 + day.cellCount)),
        now,
        key,
      ],
    );
    await insertCells(tx, scope, days);
    await writeDayChannels(
      tx,
      scope,
      days.filter((day) => day.cellCount > 0).map((day) => day.day),
    );
    return restatedDays.length;
  });
}

/** Forgets stored days (read again next time). */
export async function deleteDays(db: Db, scope: RollupScope, days: string[]): Promise<void> {
  if (days.length === 0) return;
  await db.query("delete from rollup_days where store_url = $1 and source = $2 and filter_key = $4 and day = any($3::date[])", [
    scope.storeUrl,
    scope.source,
    days,
    keyOf(scope),
  ]);
}

/** One stored day's sums for one channel or one product (`key`), within a filter. */
interface StoredDaySum {
  day: string;
  key: string;
  orders: number;
  units: number;
  revenue: number;
}

/**
 * Stored days' cells summed per day by channel and per day by product, within a channel and
 * product filter: what an alert check compares, day by day (server/rollups/day-sums.ts).
 */
export async function storedDaySums(
  db: Db,
  scope: RollupScope,
  days: string[],
  filter: CellFilter,
): Promise<{ channels: StoredDaySum[]; products: StoredDaySum[] }> {
  if (days.length === 0) return { channels: [], products: [] };
  // The days' bounds keep the index scan to them where the planner has no statistics yet.
  const where = `store_url = $1 and source = $2 and filter_key = $6
    and day between (select min(d) from unnest($3::date[]) as d) and (select max(d) from unnest($3::date[]) as d) and day = any($3::date[])
    and ($4::text is null or channel = $4) and ($5::text[] is null or product_id = any($5::text[]))`;
  const params = [
    scope.storeUrl,
    scope.source,
    days,
    filter.channel ?? null,
    filter.productIds ? [...filter.productIds] : null,
    keyOf(scope),
  ];
  const by = (column: "channel" | "product_id") =>
    db.query<StoredDaySum>(
      `select to_char(day, 'YYYY-MM-DD') as day, ${column} as key, sum(orders)::float8 as orders, sum(units)::float8 as units,
         sum(revenue)::float8 as revenue
       from rollup_cells where ${where} group by day, ${column}`,
      params,
    );
  // Without a product filter, the channel half is the day × channel sums as written (no cells read).
  const channels = filter.productIds
    ? by("channel")
    : db.query<StoredDaySum>(
        `select to_char(day, 'YYYY-MM-DD') as day, channel as key, orders::float8 as orders, units::float8 as units,
           revenue::float8 as revenue
         from rollup_day_channels where store_url = $1 and source = $2 and filter_key = $5 and day = any($3::date[])
           and ($4::text is null or channel = $4)`,
        [scope.storeUrl, scope.source, days, filter.channel ?? null, keyOf(scope)],
      );
  const [channelSums, products] = await Promise.all([channels, by("product_id")]);
  return { channels: channelSums, products };
}
