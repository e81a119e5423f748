import type { ChannelSummary, MetricsTotals, ProductBreakdown, ProductSummary, SeriesPoint } from "@/shared/schemas/product-metrics-view";

/**
 * The fields of a product metric row (contract 2.4) that the aggregation reads, checked by
 * hand: a zod parse per row would cost more than the rest of the aggregation together.
 */
export interface MetricRow {
  date: string;
  channel: string;
  ad_id?: string | null;
  product_id: string;
  product_name?: string | null;
  product_sku?: string | null;
  currency?: string | null;
  orders: number;
  units: number;
  revenue: number;
}

const isNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);
const isOptionalString = (value: unknown) => value === undefined || value === null || typeof value === "string";

export function isMetricRow(value: unknown): value is MetricRow {
  if (typeof value !== "object" || value === null) return false;
  const row = value as Record<string, unknown>;
  return (
    typeof row.date === "string" &&
    typeof row.channel === "string" &&
    typeof row.product_id === "string" &&
    isNumber(row.orders) &&
    isNumber(row.units) &&
    isNumber(row.revenue) &&
    isOptionalString(row.ad_id) &&
    isOptionalString(row.product_name) &&
    isOptionalString(row.product_sku) &&
    isOptionalString(row.currency)
  );
}

interface Sums {
  orders: number;
  units: number;
  revenue: number;
}

const emptySums = (): Sums => ({ orders: 0, units: 0, revenue: 0 });
function addTo(sums: Sums, row: MetricRow) {
  sums.orders += row.orders;
  sums.units += row.units;
  sums.revenue += row.revenue;
}

/** Rounds money to the currency's minor unit, so that float sums show as the store would. */
export function roundMoney(amount: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(amount * factor) / factor;
}

/** A ratio that JSON can carry: a tiny order count must not turn into Infinity (sent as null, refused by the page). */
const ratio = (value: number) => (Number.isFinite(value) ? value : null);

export function totalsOf(sums: Sums, rows: number, decimals: number): MetricsTotals {
  const revenue = roundMoney(sums.revenue, decimals);
  return {
    revenue,
    orders: sums.orders,
    units: sums.units,
    // From the revenue as shown: the raw sum carries float error that adding the same rows in
    // another order (the rollups' exact sums) moves, and at a half-cent it moved the last digit.
    averageOrderValue: sums.orders > 0 ? ratio(roundMoney(revenue / sums.orders, decimals)) : null,
    unitsPerOrder: sums.orders > 0 ? ratio(sums.units / sums.orders) : null,
    rows,
  };
}

/** What a ProductMetricsAggregator has summed, as plain data (a worker thread sends it back whole). */
export interface AggregatorState {
  rows: number;
  currency: string | null;
  totals: Sums;
  series: Map<string, Sums & { date: string; channel: string }>;
  channels: Map<string, Sums>;
  products: Map<string, Sums & { name: string | null; sku: string | null }>;
}

/** Sums rows as they stream in: totals, a day × channel series, channels and products. */
export class ProductMetricsAggregator {
  rows = 0;
  currency: string | null = null;
  private readonly totals: Sums;
  private readonly series: AggregatorState["series"];
  private readonly channels: AggregatorState["channels"];
  private readonly products: AggregatorState["products"];
  /** The series points by date, then channel: found without making a key string per row. */
  private readonly seriesByDate = new Map<string, Map<string, Sums & { date: string; channel: string }>>();

  /** Empty, or holding the sums of `state` (summed elsewhere, in the same order). */
  constructor(state?: AggregatorState) {
    this.rows = state?.rows ?? 0;
    this.currency = state?.currency ?? null;
    this.totals = state?.totals ?? emptySums();
    this.series = state?.series ?? new Map();
    this.channels = state?.channels ?? new Map();
    this.products = state?.products ?? new Map();
    for (const point of this.series.values()) this.indexPoint(point);
  }

  private indexPoint(point: Sums & { date: string; channel: string }) {
    let channels = this.seriesByDate.get(point.date);
    if (!channels) this.seriesByDate.set(point.date, (channels = new Map()));
    channels.set(point.channel, point);
  }

  state(): AggregatorState {
    const { rows, currency, totals, series, channels, products } = this;
    return { rows, currency, totals, series, channels, products };
  }

  add(row: MetricRow): void {
    this.rows++;
    if (row.currency && !this.currency) this.currency = row.currency;
    addTo(this.totals, row);

    let point = this.seriesByDate.get(row.date)?.get(row.channel);
    if (!point) {
      point = { date: row.date, channel: row.channel, ...emptySums() };
      this.series.set(`${row.date}\u0000${row.channel}`, point);
      this.indexPoint(point);
    }
    addTo(point, row);

    let channel = this.channels.get(row.channel);
    if (!channel) this.channels.set(row.channel, (channel = emptySums()));
    addTo(channel, row);

    let product = this.products.get(row.product_id);
    if (!product)
      this.products.set(row.product_id, (product = { name: row.product_name ?? null, sku: row.product_sku ?? null, ...emptySums() }));
    addTo(product, row);
  }

  /** Revenue by product and by channel, as summed so far: what the biggest changes compare. */
  revenues(): {
    products: ReadonlyMap<string, { revenue: number; name: string | null }>;
    channels: ReadonlyMap<string, { revenue: number }>;
  } {
    return { products: this.products, channels: this.channels };
  }

  result(decimals: number): { totals: MetricsTotals; series: SeriesPoint[]; channels: ChannelSummary[]; products: ProductSummary[] } {
    const money = (value: number) => roundMoney(value, decimals);
    return {
      totals: totalsOf(this.totals, this.rows, decimals),
      series: [...this.series.values()]
        .map(({ date, channel, revenue, orders, units }) => ({ date, channel, revenue: money(revenue), orders, units }))
        .sort((a, b) => (a.date === b.date ? a.channel.localeCompare(b.channel) : a.date < b.date ? -1 : 1)),
      channels: [...this.channels.entries()]
        .map(([channel, sums]) => ({ channel, orders: sums.orders, units: sums.units, revenue: money(sums.revenue) }))
        .sort(byRevenueThenChannel),
      products: [...this.products.entries()]
        .map(([productId, sums]) => ({
          productId,
          name: sums.name,
          sku: sums.sku,
          orders: sums.orders,
          units: sums.units,
          revenue: money(sums.revenue),
        }))
        .sort((a, b) => b.revenue - a.revenue || a.productId.localeCompare(b.productId)),
    };
  }
}

/** Ties go by name, so that the same sums give the same order however their rows arrived (the day rollups add them in another order). */
export const byRevenueThenChannel = (a: { revenue: number; channel: string }, b: { revenue: number; channel: string }) =>
  b.revenue - a.revenue || a.channel.localeCompare(b.channel);

/** Sums one product's rows by channel and ad, for the expanded table row. */
export class BreakdownAggregator {
  private readonly groups = new Map<string, Sums & { channel: string; adId: string | null }>();

  add(row: MetricRow): void {
    const adId = row.ad_id ?? null;
    const key = `${row.channel}\u0000${adId ?? ""}`;
    let group = this.groups.get(key);
    if (!group) this.groups.set(key, (group = { channel: row.channel, adId, ...emptySums() }));
    addTo(group, row);
  }

  result(productId: string, decimals: number): ProductBreakdown {
    return {
      productId,
      rows: [...this.groups.values()]
        .map(({ channel, adId, orders, units, revenue }) => ({ channel, adId, orders, units, revenue: roundMoney(revenue, decimals) }))
        .sort((a, b) => byRevenueThenChannel(a, b) || (a.adId ?? "").localeCompare(b.adId ?? "")),
    };
  }
}
