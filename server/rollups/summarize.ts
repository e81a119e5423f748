import "server-only";
import type { Db } from "@/server/db/database";
import { RangeSummary, type CellFilter } from "./range-summary";
import { fullMonths, PLACE_BASE } from "./grain";
import type { RollupScope } from "./repository";

const keyOf = (scope: RollupScope) => scope.filterKey ?? "";
const dayOfNumber = (days: number) => new Date(days * 86_400_000).toISOString().slice(0, 10);

type Series = { date: string; channel: string; rows: number; orders: number; units: number; revenue: number };
type Product = Omit<Series, "date" | "channel"> & {
  productId: string;
  firstKey: number;
  cells: number;
  names: number;
  minName: string | null;
  maxName: string | null;
  skus: number;
  minSku: string | null;
  maxSku: string | null;
};
type Currency = { currency: string; day: string; row: number };

/** What a view's stored days came to, and the whole months it held. */
export interface StoredSummary {
  summary: RangeSummary;
  /** Months every day of which this read held, fresh (unfiltered views only): those without a row are built after answering. */
  wholeMonths: string[];
  /** Days asked for that the snapshot did not hold (evicted, restated or purged since they were looked up): to be read upstream. */
  missing: string[];
  /** Rows each grain gave (what the view cost the database). */
  rowsRead: { dayChannels: number; productMonths: number; cells: number };
}

/** The products' sums of the cells: a product's first row as one number, its name and SKU when every cell agrees. */
const CELL_PRODUCT_COLUMNS = `product_id, row_count, orders, units, revenue,
  (day - date '1970-01-01')::bigint * ${PLACE_BASE} + first_row as first_key, 1 as cells,
  (product_name is not null)::int as names, product_name as min_name, product_name as max_name,
  (product_sku is not null)::int as skus, product_sku as min_sku, product_sku as max_sku`;
const MONTH_PRODUCT_COLUMNS = `product_id, row_count, orders, units, revenue, first_key, cells, names, min_name, max_name, skus, min_sku, max_sku`;
const PRODUCT_SUMS = `product_id as "productId", sum(row_count)::int as rows, sum(orders)::float8 as orders, sum(units)::float8 as units,
  sum(revenue)::float8 as revenue, min(first_key)::float8 as "firstKey", sum(cells)::int as cells, sum(names)::int as names,
  min(min_name) as "minName", max(max_name) as "maxName", sum(skus)::int as skus, min(min_sku) as "minSku", max(max_sku) as "maxSku"`;

/** The isolation of a view's sums: every statement of it reads one snapshot. */
const ONE_SNAPSHOT = "set transaction isolation level repeatable read, read only";

/**
 * The stored days' sums for a view, in one snapshot that also says which of the days it holds:
 * a day gone since it was looked up is returned as missing, never summed short. Nothing is written. Without a product filter the
 * series comes from the day × channel sums; without a channel or product filter the products come
 * from the month rows of the range's whole months that have them, plus the cells of the other days,
 * and the currency from the days. Any other filter reads the cells, as only they carry both keys.
 */
export function summarizeStored(db: Db, scope: RollupScope, asked: string[], filter: CellFilter): Promise<StoredSummary> {
  if (asked.length === 0)
    return Promise.resolve({
      summary: new RangeSummary(),
      wholeMonths: [],
      missing: [],
      rowsRead: { dayChannels: 0, productMonths: 0, cells: 0 },
    });
  return db.transaction(async (tx) => {
    const present = await tx.query<{ day: string }>(
      `select to_char(day, 'YYYY-MM-DD') as day from rollup_days
       where store_url = $1 and source = $2 and filter_key = $3 and day between $5 and $6 and day = any($4::date[])`,
      [scope.storeUrl, scope.source, keyOf(scope), asked, asked.reduce((a, b) => (a < b ? a : b)), asked.reduce((a, b) => (a > b ? a : b))],
    );
    const held = new Set(present.map((row) => row.day));
    const days = asked.filter((day) => held.has(day));
    const missing = asked.filter((day) => !held.has(day));
    return { ...(await summarizeHeld(tx, scope, days, filter)), missing };
  }, ONE_SNAPSHOT);
}

async function summarizeHeld(db: Db, scope: RollupScope, days: string[], filter: CellFilter): Promise<Omit<StoredSummary, "missing">> {
  const summary = new RangeSummary();
  const rowsRead = { dayChannels: 0, productMonths: 0, cells: 0 };
  if (days.length === 0) return { summary, wholeMonths: [], rowsRead };
  const key = keyOf(scope);
  const unfiltered = filter.channel === undefined && !filter.productIds;
  const dayBounds = `day between (select min(d) from unnest($4::date[]) as d) and (select max(d) from unnest($4::date[]) as d)
    and day = any($4::date[])`;
  const cellWhere = `store_url = $1 and source = $2 and filter_key = $3 and ${dayBounds}
    and ($5::text is null or channel = $5) and ($6::text[] is null or product_id = any($6::text[]))`;
  const cellParams = (onDays: string[]) => [
    scope.storeUrl,
    scope.source,
    key,
    onDays,
    filter.channel ?? null,
    filter.productIds ? [...filter.productIds] : null,
  ];
  const params = cellParams(days);
  const months = unfiltered ? fullMonths(days) : [];

  // One grouped query over the month rows of the whole months that have one and the cells of the
  // other days, in one snapshot: a month row dropped meanwhile is then summed from its cells. Each
  // month is one index probe (a lateral limit). The bounds of the days keep the index scan to them
  // even where the planner has no statistics yet (it then leaves a list of days out of the index
  // condition and would scan every day of the key).
  const productsQuery = () =>
    db.query<Product & { fromMonths: number; fromCells: number }>(
      `with held as materialized (
       select m from unnest($7::date[]) as m cross join lateral (
         select 1 from rollup_product_months p where p.store_url = $1 and p.source = $2 and p.filter_key = $3 and p.month = m limit 1
       ) as found
     ), cell_days as materialized (
       select array_agg(d) as days, min(d) as first, max(d) as last from unnest($4::date[]) as d
       where date_trunc('month', d)::date <> all (array(select m from held))
     )
     select ${PRODUCT_SUMS}, sum(from_months)::int as "fromMonths", sum(1 - from_months)::int as "fromCells" from (
       select ${MONTH_PRODUCT_COLUMNS}, 1 as from_months from rollup_product_months
       where store_url = $1 and source = $2 and filter_key = $3 and month between (select min(m) from held) and (select max(m) from held)
         and month = any (array(select m from held)::date[])
       union all
       select ${CELL_PRODUCT_COLUMNS}, 0 as from_months from rollup_cells
       where store_url = $1 and source = $2 and filter_key = $3 and day between (select first from cell_days) and (select last from cell_days)
         and day = any ((select days from cell_days)::date[]) and ($5::text is null or channel = $5)
         and ($6::text[] is null or product_id = any($6::text[]))
     ) as sums group by product_id`,
      [...params, months],
    );
  // One after another: the statements share the snapshot's one connection, which runs them in turn anyway.
  const series = await (filter.productIds
    ? db.query<Series>(
        `select to_char(day, 'YYYY-MM-DD') as date, channel, sum(row_count)::int as rows, sum(orders)::float8 as orders,
             sum(units)::float8 as units, sum(revenue)::float8 as revenue
           from rollup_cells where ${cellWhere} group by day, channel`,
        params,
      )
    : db.query<Series>(
        `select to_char(day, 'YYYY-MM-DD') as date, channel, row_count as rows, orders::float8 as orders, units::float8 as units,
             revenue::float8 as revenue
           from rollup_day_channels where store_url = $1 and source = $2 and filter_key = $3 and ${dayBounds}
             and ($5::text is null or channel = $5)`,
        params.slice(0, 5),
      ));
  const products = await productsQuery();
  const currency = await (unfiltered
    ? // The day's first currency; days come whole from here or from the upstream, so the day alone orders them.
      db.query<Currency>(
        `select currency, to_char(day, 'YYYY-MM-DD') as day, 0 as row from rollup_days
           where store_url = $1 and source = $2 and filter_key = $3 and ${dayBounds} and currency is not null
           order by day limit 1`,
        params.slice(0, 4),
      )
    : db.query<Currency>(
        `select currency, to_char(day, 'YYYY-MM-DD') as day, currency_row as row from rollup_cells
           where ${cellWhere} and currency is not null order by day, currency_row limit 1`,
        params,
      ));
  rowsRead.dayChannels = filter.productIds ? 0 : series.length;
  rowsRead.productMonths = products.reduce((sum, p) => sum + p.fromMonths, 0);
  rowsRead.cells = products.reduce((sum, p) => sum + p.fromCells, 0);

  for (const point of series) summary.addSeries(point);
  const agreed = (count: number, cells: number, min: string | null, max: string | null) =>
    count === 0 ? { value: null } : count === cells && min === max ? { value: min } : undefined;
  const varying = products.filter((p) => !agreed(p.names, p.cells, p.minName, p.maxName) || !agreed(p.skus, p.cells, p.minSku, p.maxSku));
  const firstOf = new Map<string, { name: string | null; sku: string | null }>();
  if (varying.length > 0) {
    // The first cell's name and SKU of the few products whose cells disagree: from the cells themselves.
    const rows = await db.query<{ productId: string; name: string | null; sku: string | null }>(
      `select distinct on (product_id) product_id as "productId", product_name as name, product_sku as sku
       from rollup_cells where ${cellWhere} and product_id = any($7::text[]) order by product_id, day, first_row`,
      [...params, varying.map((p) => p.productId)],
    );
    for (const row of rows) firstOf.set(row.productId, row);
  }
  for (const p of products) {
    const name = agreed(p.names, p.cells, p.minName, p.maxName)?.value ?? firstOf.get(p.productId)?.name ?? null;
    const sku = agreed(p.skus, p.cells, p.minSku, p.maxSku)?.value ?? firstOf.get(p.productId)?.sku ?? null;
    const first = { day: dayOfNumber(Math.floor(p.firstKey / PLACE_BASE)), row: p.firstKey % PLACE_BASE };
    summary.addProduct({ productId: p.productId, name, sku, first, rows: p.rows, orders: p.orders, units: p.units, revenue: p.revenue });
  }
  for (const found of currency) summary.addCurrency(found.currency, { day: found.day, row: found.row });
  return { summary, wholeMonths: months, rowsRead };
}
