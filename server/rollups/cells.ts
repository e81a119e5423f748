import { roundMoney, totalsOf, type MetricRow } from "@/server/metrics/aggregate";
import type { ChannelSummary, MetricsTotals, ProductSummary, SeriesPoint } from "@/shared/schemas/product-metrics-view";

/**
 * The rollup grain: one store-local day's rows summed per channel and product. Everything a
 * view without row-level filters shows (totals, the day × channel series, channels, products)
 * is a sum over cells; the first row's name, SKU and currency are kept with their place in
 * the day's rows, so a view picks the same ones a full read would.
 */
interface Cell {
  day: string;
  channel: string;
  productId: string;
  name: string | null;
  sku: string | null;
  firstRow: number;
  currency: string | null;
  currencyRow: number | null;
  rows: number;
  orders: number;
  units: number;
  revenue: number;
}

/** Sums one day's rows, in the order they arrived, into cells. */
export class DayCells {
  rows = 0;
  currency: string | null = null;

  constructor(
    readonly day: string,
    readonly cells = new Map<string, Cell>(),
  ) {}

  add(row: MetricRow): void {
    const index = this.rows++;
    if (row.currency && !this.currency) this.currency = row.currency;
    const key = `${row.channel}\u0000${row.product_id}`;
    let cell = this.cells.get(key);
    if (!cell) {
      cell = {
        day: this.day,
        channel: row.channel,
        productId: row.product_id,
        name: row.product_name ?? null,
        sku: row.product_sku ?? null,
        firstRow: index,
        currency: null,
        currencyRow: null,
        rows: 0,
        orders: 0,
        units: 0,
        revenue: 0,
      };
      this.cells.set(key, cell);
    }
    if (row.currency && cell.currency === null) {
      cell.currency = row.currency;
      cell.currencyRow = index;
    }
    cell.rows++;
    cell.orders += row.orders;
    cell.units += row.units;
    cell.revenue += row.revenue;
  }
}

/**
 * Bytes counted per cell on top of its text: its numbers in the day's arrays (rollup_day_cells).
 * The arrays are compressed, so this errs high: at demo scale 3, 63,365 cells took 2.9 MiB of
 * tables and indexes (rows of days included), counted as 5.1 MiB.
 */
const CELL_OVERHEAD_BYTES = 16;
/** A day's two rows (its totals and its arrays), their index entries and the arrays' headers. */
const DAY_OVERHEAD_BYTES = 400;
/** Bytes counted per row of the day's channel sums (rollup_day_channels) on top of its channel's text. */
const DAY_CHANNEL_OVERHEAD_BYTES = 110;

const cellBytes = (cell: Cell) =>
  CELL_OVERHEAD_BYTES + cell.channel.length + cell.productId.length + (cell.name?.length ?? 0) + (cell.sku?.length ?? 0);

/**
 * A day read whole, as it is written: its totals, its estimated size, and its cells as the bodies
 * of PostgreSQL array literals, one per array of rollup_day_cells from `channel` to `revenue`. Made where
 * the day was summed (a worker thread), so the event loop neither keeps a large store's cells as
 * objects until they are written nor serializes them. The cells themselves are kept only for a
 * day held before, whose restatement names the channels and products that moved.
 */
export interface DayWrite {
  day: string;
  rows: number;
  currency: string | null;
  totals: { orders: number; units: number; revenue: number };
  bytes: number;
  cellCount: number;
  columns: string[];
  cells?: Map<string, Cell>;
}

const NEEDS_ESCAPE = /["\\]/;

/** One element of an array literal, written as node-postgres writes an array parameter's elements. */
const element = (value: string | number | null) =>
  value === null
    ? "NULL"
    : typeof value === "number" || !NEEDS_ESCAPE.test(value)
      ? `"${value}"`
      : `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;

export function dayWrite(day: DayCells, keepCells: boolean): DayWrite {
  const totals = { orders: 0, units: 0, revenue: 0 };
  let bytes = DAY_OVERHEAD_BYTES;
  const columns: string[][] = Array.from({ length: 11 }, () => []);
  const channels = new Set<string>();
  for (const cell of day.cells.values()) {
    if (!channels.has(cell.channel)) {
      channels.add(cell.channel);
      bytes += DAY_CHANNEL_OVERHEAD_BYTES + cell.channel.length;
    }
    totals.orders += cell.orders;
    totals.units += cell.units;
    totals.revenue += cell.revenue;
    bytes += cellBytes(cell);
    const values = [
      cell.channel,
      cell.productId,
      cell.name,
      cell.sku,
      cell.firstRow,
      cell.currency,
      cell.currencyRow,
      cell.rows,
      cell.orders,
      cell.units,
      cell.revenue,
    ];
    for (let i = 0; i < values.length; i++) columns[i]!.push(element(values[i]!));
  }
  return {
    day: day.day,
    rows: day.rows,
    currency: day.currency,
    totals,
    bytes,
    cellCount: day.cells.size,
    columns: columns.map((column) => column.join(",")),
    ...(keepCells ? { cells: day.cells } : {}),
  };
}

/** What a view filtered to channels and products keeps of the cells. */
export interface CellFilter {
  channel?: string;
  productIds?: ReadonlySet<string>;
}

export const cellMatches = (cell: Cell, filter: CellFilter) =>
  (filter.channel === undefined || cell.channel === filter.channel) && (!filter.productIds || filter.productIds.has(cell.productId));

interface Sums {
  rows: number;
  orders: number;
  units: number;
  revenue: number;
}

/** A place in the rows of a range: day first, then the row's index in its day. */
type Place = { day: string; row: number };
const before = (a: Place, b: Place) => a.day < b.day || (a.day === b.day && a.row < b.row);

interface SeriesSums extends Sums {
  date: string;
  channel: string;
}

interface ProductSums extends Sums {
  productId: string;
  name: string | null;
  sku: string | null;
  first: Place;
}

/** What a RangeSummary holds, as plain data (a worker thread sums into it and sends it back). */
export interface SummaryState {
  series: Map<string, SeriesSums>;
  products: Map<string, ProductSums>;
  currency: { value: string; at: Place } | null;
}

/** Cells of a range summed to what the view needs, from the database or from rows just read. */
export class RangeSummary {
  readonly series = new Map<string, SeriesSums>();
  readonly products = new Map<string, ProductSums>();
  currency: { value: string; at: Place } | null = null;

  state(): SummaryState {
    return { series: this.series, products: this.products, currency: this.currency };
  }

  /** Takes over what `state` holds (the same sums, carried on elsewhere from this summary's state). */
  load(state: SummaryState): void {
    this.series.clear();
    this.products.clear();
    for (const [key, point] of state.series) this.series.set(key, point);
    for (const [key, product] of state.products) this.products.set(key, product);
    this.currency = state.currency;
  }

  addSeries(point: SeriesSums): void {
    const key = `${point.date}\u0000${point.channel}`;
    const found = this.series.get(key);
    if (!found) this.series.set(key, { ...point });
    else addSums(found, point);
  }

  addProduct(product: ProductSums): void {
    const found = this.products.get(product.productId);
    if (!found) this.products.set(product.productId, { ...product, first: { ...product.first } });
    else {
      if (before(product.first, found.first)) Object.assign(found, { name: product.name, sku: product.sku, first: product.first });
      addSums(found, product);
    }
  }

  addCurrency(value: string | null, at: Place): void {
    if (value && (!this.currency || before(at, this.currency.at))) this.currency = { value, at };
  }

  addCell(cell: Cell): void {
    this.addSeries({ date: cell.day, channel: cell.channel, ...sumsOf(cell) });
    this.addProduct({
      productId: cell.productId,
      name: cell.name,
      sku: cell.sku,
      first: { day: cell.day, row: cell.firstRow },
      ...sumsOf(cell),
    });
    if (cell.currencyRow !== null) this.addCurrency(cell.currency, { day: cell.day, row: cell.currencyRow });
  }

  get rows(): number {
    let rows = 0;
    for (const point of this.series.values()) rows += point.rows;
    return rows;
  }

  /** Revenue by product and by channel: what the biggest changes compare. */
  revenues(): {
    products: ReadonlyMap<string, { revenue: number; name: string | null }>;
    channels: ReadonlyMap<string, { revenue: number }>;
  } {
    return { products: this.products, channels: this.channelSums() };
  }

  private channelSums(): Map<string, Sums> {
    const channels = new Map<string, Sums>();
    for (const point of [...this.series.values()].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0))) {
      const found = channels.get(point.channel);
      if (!found) channels.set(point.channel, { ...sumsOf(point) });
      else addSums(found, point);
    }
    return channels;
  }

  result(decimals: number): { totals: MetricsTotals; series: SeriesPoint[]; channels: ChannelSummary[]; products: ProductSummary[] } {
    const money = (value: number) => roundMoney(value, decimals);
    const total = { rows: 0, orders: 0, units: 0, revenue: 0 };
    for (const point of this.series.values()) addSums(total, point);
    return {
      totals: totalsOf(total, total.rows, decimals),
      series: [...this.series.values()]
        .map(({ date, channel, revenue, orders, units }) => ({ date, channel, revenue: money(revenue), orders, units }))
        .sort((a, b) => (a.date === b.date ? a.channel.localeCompare(b.channel) : a.date < b.date ? -1 : 1)),
      channels: [...this.channelSums().entries()]
        .map(([channel, sums]) => ({ channel, orders: sums.orders, units: sums.units, revenue: money(sums.revenue) }))
        .sort((a, b) => b.revenue - a.revenue),
      products: [...this.products.values()]
        .map(({ productId, name, sku, orders, units, revenue }) => ({ productId, name, sku, orders, units, revenue: money(revenue) }))
        .sort((a, b) => b.revenue - a.revenue || a.productId.localeCompare(b.productId)),
    };
  }
}

const sumsOf = (from: Sums): Sums => ({ rows: from.rows, orders: from.orders, units: from.units, revenue: from.revenue });
function addSums(to: Sums, from: Sums): void {
  to.rows += from.rows;
  to.orders += from.orders;
  to.units += from.units;
  to.revenue += from.revenue;
}
