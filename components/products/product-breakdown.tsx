"use client";

import { useQueries } from "@tanstack/react-query";
import type { MetricsFilters } from "@/shared/schemas/product-metrics-view";
import { formatCurrency, formatNumber } from "@/shared/format";
import { enrichQueryOptions } from "@/client/queries/enrich";
import { useProductBreakdown } from "@/client/queries/product-metrics";
import { enumLabel, statusTone } from "@/shared/store-locale";
import { Badge } from "@/components/ui/card";
import { ErrorPanel } from "@/components/ui/error-panel";
import { Skeleton } from "@/components/ui/states";
import { statusWords } from "@/shared/words";

/** One product's revenue by channel and ad, with ad names and statuses resolved per channel. */
export function ProductBreakdown({
  storeUrl,
  organizationId,
  filters,
  productId,
  currency,
}: {
  storeUrl: string;
  organizationId?: string;
  filters: MetricsFilters;
  productId: string;
  currency: string;
}) {
  const breakdown = useProductBreakdown(storeUrl, filters, productId, organizationId);
  const adsByChannel = new Map<string, string[]>();
  for (const row of breakdown.data?.rows ?? []) {
    if (row.adId) adsByChannel.set(row.channel, [...(adsByChannel.get(row.channel) ?? []), row.adId]);
  }
  const channels = [...adsByChannel.keys()].sort();
  const enriched = useQueries({
    queries: channels.map((channel) => enrichQueryOptions(storeUrl, channel, adsByChannel.get(channel)!, organizationId)),
  });
  const assets = new Map(
    enriched.flatMap((query, index) =>
      (query.data?.assets ?? []).map((asset) => [`${channels[index]}\u0000${asset.assetId}`, asset] as const),
    ),
  );

  if (breakdown.isPending) return <Skeleton lines={2} label="Loading the breakdown by channel and ad" />;
  if (breakdown.isError) return <ErrorPanel error={breakdown.error} onRetry={() => breakdown.refetch()} />;
  return (
    <table className="w-full text-left text-sm">
      <caption className="sr-only">Breakdown of this product by channel and ad</caption>
      <thead className="text-xs text-slate-500 dark:text-slate-400">
        <tr>
          <th scope="col" className="py-1 pr-3">
            Channel
          </th>
          <th scope="col" className="py-1 pr-3">
            Ad
          </th>
          <th scope="col" className="py-1 pr-3 text-right">
            Revenue
          </th>
          <th scope="col" className="py-1 pr-3 text-right">
            Orders
          </th>
          <th scope="col" className="py-1 pr-3 text-right">
            Units
          </th>
        </tr>
      </thead>
      <tbody>
        {breakdown.data.rows.map((row) => {
          const asset = row.adId ? assets.get(`${row.channel}\u0000${row.adId}`) : undefined;
          return (
            <tr key={`${row.channel}-${row.adId ?? "none"}`} className="border-t border-slate-100 dark:border-slate-800">
              <td className="py-1 pr-3">
                <bdi>{enumLabel(row.channel)}</bdi>
              </td>
              <td className="py-1 pr-3">
                {row.adId === null ? (
                  <span className="text-slate-500 dark:text-slate-400">no ad</span>
                ) : asset ? (
                  <span className="flex flex-wrap items-center gap-2">
                    <bdi>{asset.assetName}</bdi>
                    <Badge tone={statusTone(asset.assetEffectiveStatus)}>{statusWords(enumLabel(asset.assetEffectiveStatus))}</Badge>
                    <code className="font-mono text-xs text-slate-500 dark:text-slate-400">{row.adId}</code>
                  </span>
                ) : (
                  <code className="font-mono text-xs" title="This ad ID does not resolve to a name">
                    {row.adId}
                  </code>
                )}
              </td>
              <td className="py-1 pr-3 text-right whitespace-nowrap tabular-nums">{formatCurrency(row.revenue, currency)}</td>
              <td className="py-1 pr-3 text-right whitespace-nowrap tabular-nums">{formatNumber(row.orders)}</td>
              <td className="py-1 pr-3 text-right whitespace-nowrap tabular-nums">{formatNumber(row.units)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
