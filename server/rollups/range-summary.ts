import { byRevenueThenChannel, roundMoney, totalsOf } from "@/server/metrics/aggregate";
import type { ChannelSummary, MetricsTotals, ProductSummary, SeriesPoint } from "@/shared/schemas/product-metrics-view";
import type { Cell } from "./cells";

/**
 * A range's cells summed to what a view shows (totals, the day × channel series, channels and
 * products), picking the first row's name, SKU and currency as a full read of the rows would.
 */

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
        .sort(byRevenueThenChannel),
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
