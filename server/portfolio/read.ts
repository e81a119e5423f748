import "server-only";
import { database } from "@/server/db/database";
import { openEpisodeCounts } from "@/server/alerts/rules";
import { DashboardError } from "@/server/http/responses";
import { toDashboardError } from "@/server/http/failures";
import { productMetricsView } from "@/server/metrics/service";
import type { UpstreamClient } from "@/server/upstream/client";
import { currencyDecimals } from "@/shared/format";
import { dailyTotals } from "@/shared/metrics/comparison";
import type { DateRange } from "@/shared/metrics/date-range";
import type { MetricsTotals } from "@/shared/schemas/product-metrics-view";
import type { PortfolioFailure, PortfolioRow } from "@/shared/schemas/portfolio";
import { storeProfileSchema } from "@/shared/schemas/store";
import { interpretTimeZone } from "@/shared/store-locale";

/** Stores read at once: a ring of twenty stores never sends the upstream twenty years at a time. */
const PORTFOLIO_CONCURRENCY = 2;

export interface PortfolioRead {
  stores: readonly { url: string; name?: string }[];
  /** The store's range, from its own time zone: a preset is each store's own "last 7 days". */
  rangeIn: (timeZone: string) => DateRange;
  compare: "previous" | "year" | "off";
  /** The upstream as each store's own key (or grant). */
  upstreamOf: (storeUrl: string) => UpstreamClient | Promise<UpstreamClient>;
  signal?: AbortSignal;
  /** Open alert episodes per store, when already read. */
  openAlerts?: Map<string, number>;
}

const REFUSED: Record<string, string> = {
  key_revoked: "This key was revoked",
  key_expired: "This key has expired",
  key_invalid: "The analytics service does not accept this key",
  key_unscoped: "This key has no store scope",
  forbidden: "This key may not read this store's figures",
};

/** What the row says when its store could not be read: what happened, and what to do. */
export function storeFailure(storeUrl: string, error: unknown): PortfolioFailure {
  const failure = toDashboardError(error) ?? new DashboardError(500, "internal_error", "The dashboard could not read this store.");
  const refused = failure.status === 401 || failure.status === 403;
  const message = refused
    ? `${REFUSED[failure.code] ?? REFUSED.forbidden}: remove it from your stores or add a new one.`
    : `${failure.message.replace(/\.?$/, ".")} The other stores are unaffected; try again in a moment.`;
  return { type: "store", storeUrl, error: { status: failure.status, code: failure.code, message } };
}

const figures = (totals: MetricsTotals) => ({
  revenue: totals.revenue,
  orders: totals.orders,
  units: totals.units,
  aov: totals.averageOrderValue,
});

/** One store's row, through the metrics service (and so the day rollups); a failure becomes the row's error. */
async function readStore(read: PortfolioRead, store: PortfolioRead["stores"][number], openAlerts: number): Promise<PortfolioRow> {
  try {
    const upstream = await read.upstreamOf(store.url);
    const { data: profile } = await upstream.json("store-profile", storeProfileSchema, { params: { storeUrl: store.url } });
    const timeZone = interpretTimeZone(profile.timezone).zone;
    const range = read.rangeIn(timeZone);
    const compare = read.compare === "off" ? undefined : read.compare;
    const view = await productMetricsView(upstream, store.url, range, compare, {}, read.signal).view;
    const currency = profile.currency || view.currency || "";
    const top = view.channels.reduce<(typeof view.channels)[number] | undefined>(
      (best, c) => (c.revenue > (best?.revenue ?? 0) ? c : best),
      undefined,
    );
    const decimals = currencyDecimals(currency);
    return {
      type: "store",
      storeUrl: store.url,
      name: profile.name ?? store.name ?? store.url,
      currency,
      timeZone,
      totals: figures(view.totals),
      previous: view.comparison ? figures(view.comparison.totals) : null,
      topChannel: top?.channel ?? null,
      openAlerts,
      // Without the day rollups the figures are read now (or within the minute a view is kept).
      asOf: view.freshness?.asOf ?? new Date().toISOString(),
      ...range,
      daily: dailyTotals(view.series, range, "revenue").map((amount) => Number(amount.toFixed(decimals))),
    };
  } catch (error) {
    return storeFailure(store.url, error);
  }
}

/** Open alert episodes per store, read under the current reach. */
export const openAlertsOf = async (stores: PortfolioRead["stores"]) =>
  openEpisodeCounts(
    await database(),
    stores.map((store) => store.url),
  );

/** Every store's row, PORTFOLIO_CONCURRENCY at a time, each passed to `each` as it answers; call within the stores' reach. */
export async function readPortfolio(read: PortfolioRead, each: (row: PortfolioRow) => void = () => undefined): Promise<PortfolioRow[]> {
  const alerts = read.openAlerts ?? (await openAlertsOf(read.stores));
  const rows: PortfolioRow[] = [];
  let next = 0;
  const lane = async () => {
    for (let store = read.stores[next++]; store; store = read.stores[next++]) {
      const row = await readStore(read, store, alerts.get(store.url) ?? 0);
      rows.push(row);
      each(row);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PORTFOLIO_CONCURRENCY, read.stores.length) }, lane));
  return rows;
}
