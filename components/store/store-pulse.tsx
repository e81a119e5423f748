"use client";

import Link from "next/link";
import { useProductMetrics } from "@/client/queries/product-metrics";
import { requestIdOf } from "@/client/queries/api-client";
import { formatCurrency, formatNumber, formatPercent } from "@/shared/format";
import { compactChange, dailyTotals } from "@/shared/metrics/comparison";
import { resolvePreset } from "@/shared/metrics/date-range";
import type { ProductMetricsView, RevenueChange } from "@/shared/schemas/product-metrics-view";
import { Card } from "@/components/ui/card";
import { ErrorPanel } from "@/components/ui/error-panel";
import { Skeleton } from "@/components/ui/states";
import { MetricTile } from "@/components/metrics/metric-tile";

const AGAINST = "the 7 days before";

/** The last 7 days (today's part included) against the 7 before, in the store's zone. */
export function useLastSevenDays(storeUrl: string, timeZone: string | undefined, organizationId?: string) {
  const range = resolvePreset("last7", timeZone ?? "UTC");
  const query = useProductMetrics(storeUrl, range, { compare: "previous", organizationId, enabled: timeZone !== undefined });
  return { range, query };
}

function tiles(view: ProductMetricsView, currency: string) {
  const range = { startDate: view.startDate, endDate: view.endDate };
  const before = view.comparison?.totals;
  const daily = (metric: "revenue" | "orders" | "units") => dailyTotals(view.series, range, metric);
  const revenue = daily("revenue");
  const orders = daily("orders");
  return [
    {
      label: "Revenue",
      value: formatCurrency(view.totals.revenue, currency),
      daily: revenue,
      now: view.totals.revenue,
      then: before?.revenue,
    },
    { label: "Orders", value: formatNumber(view.totals.orders), daily: orders, now: view.totals.orders, then: before?.orders },
    { label: "Units", value: formatNumber(view.totals.units), daily: daily("units"), now: view.totals.units, then: before?.units },
    {
      label: "Average order value",
      value: view.totals.averageOrderValue === null ? "—" : formatCurrency(view.totals.averageOrderValue, currency),
      daily: revenue.map((amount, index) => (orders[index]! > 0 ? amount / orders[index]! : 0)),
      now: view.totals.averageOrderValue,
      then: before?.averageOrderValue,
    },
  ];
}

interface ChangeLine {
  /** "Product Summit Insulated Jacket — Ember" */
  subject: string;
  /** "+$2,293.50 (↑10.5%)": kept on one line, as a figure is. */
  figure: string;
}

function changeLine(change: RevenueChange, kind: string, currency: string): ChangeLine {
  const rose = change.change >= 0;
  const trend =
    change.presence === "new"
      ? " (new)"
      : change.percent === null
        ? ""
        : ` (${rose ? "↑" : "↓"}${formatPercent(Math.abs(change.percent))})`;
  return {
    subject: `${kind} ${change.name ?? change.key}`,
    figure: `${rose ? "+" : "−"}${formatCurrency(Math.abs(change.change), currency)}${trend}`,
  };
}

/** The largest rise and fall among products and channels, one line each. */
function biggestLines(view: ProductMetricsView, currency: string): ChangeLine[] {
  const changes = view.comparison?.changes;
  if (!changes) return [];
  const picks: [RevenueChange | undefined, string][] = [
    [changes.products.risers[0], "Product"],
    [changes.products.fallers[0], "Product"],
    [changes.channels.risers[0], "Channel"],
    [changes.channels.fallers[0], "Channel"],
  ];
  return picks
    .filter((pick): pick is [RevenueChange, string] => pick[0] !== undefined)
    .map(([change, kind]) => changeLine(change, kind, currency));
}

export function StorePulse({
  storeUrl,
  organizationId,
  timeZone,
  currency,
}: {
  storeUrl: string;
  organizationId?: string;
  timeZone: string;
  currency: string;
}) {
  const { query } = useLastSevenDays(storeUrl, timeZone, organizationId);
  const suffix = organizationId ? `?organizationId=${encodeURIComponent(organizationId)}` : "";
  return (
    <Card
      title="Last 7 days"
      actions={
        <Link
          href={`/stores/${encodeURIComponent(storeUrl)}/products${suffix}`}
          className="text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300"
        >
          All product metrics
        </Link>
      }
      boundary={{ name: "The last 7 days", requestId: requestIdOf(query.data), resetKey: query.data }}
    >
      {query.isPending ? (
        <Skeleton lines={3} label="Reading the last 7 days" />
      ) : query.isError ? (
        <ErrorPanel error={query.error} onRetry={() => query.refetch()} />
      ) : (
        <div className="space-y-4">
          <p className="text-sm text-slate-600 dark:text-slate-400">Today so far and the 6 days before, against {AGAINST}.</p>
          <ul className="grid grid-cols-2 gap-3 lg:grid-cols-4" aria-label="Key figures of the last 7 days">
            {tiles(query.data, currency).map((tile) => (
              <MetricTile
                key={tile.label}
                label={tile.label}
                value={tile.value}
                daily={tile.daily}
                changes={[{ change: compactChange(tile.now, tile.then, AGAINST) }]}
              />
            ))}
          </ul>
          <section aria-labelledby="pulse-changes">
            <h3 id="pulse-changes" className="text-sm font-semibold">
              Biggest changes
            </h3>
            {biggestLines(query.data, currency).length === 0 ? (
              <p className="text-sm text-slate-600 dark:text-slate-400">No revenue moved in either period.</p>
            ) : (
              <ul className="mt-1 space-y-0.5 text-sm" data-testid="pulse-changes">
                {biggestLines(query.data, currency).map((line) => (
                  <li key={`${line.subject}${line.figure}`} className="break-words">
                    <bdi>{line.subject}</bdi>: <span className="whitespace-nowrap tabular-nums">{line.figure}</span>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>
      )}
    </Card>
  );
}
