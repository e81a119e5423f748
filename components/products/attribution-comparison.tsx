import type { ChannelSummary } from "@/shared/schemas/product-metrics-view";
import { formatCurrency, formatNumber, formatPercent } from "@/shared/format";
import { relativeChange } from "@/shared/metrics/presentation";
import { enumLabel } from "@/shared/store-locale";
import { Card } from "@/components/ui/card";

/** Each channel's orders and revenue under both attributions, and how far first touch moves them. */
export function AttributionComparison({
  conversion,
  firstTouch,
  currency,
}: {
  conversion: ChannelSummary[];
  firstTouch: ChannelSummary[];
  currency: string;
}) {
  const byChannel = new Map(firstTouch.map((channel) => [channel.channel, channel]));
  const channels = [...new Set([...conversion.map((c) => c.channel), ...firstTouch.map((c) => c.channel)])];
  const rows = channels
    .map((channel) => ({ channel, conversion: conversion.find((c) => c.channel === channel), firstTouch: byChannel.get(channel) }))
    .sort((a, b) => (b.conversion?.revenue ?? 0) - (a.conversion?.revenue ?? 0));
  return (
    <Card boundary={{ name: "The attribution comparison", resetKey: firstTouch }} title="Channels under each attribution">
      {/* Focusable: on a phone the table scrolls sideways, and a keyboard must be able to scroll it. */}
      <div className="relative overflow-x-auto" tabIndex={0} role="region" aria-label="Channels under each attribution, table">
        <table className="cards-on-phone w-full text-left text-sm sm:min-w-[36rem]">
          <caption className="sr-only">Orders and revenue per channel, credited to the conversion and to the first touch</caption>
          <thead className="text-xs uppercase tracking-wide text-slate-500 dark:text-slate-400">
            <tr>
              <th scope="col" className="py-2 pr-3">
                Channel
              </th>
              <th scope="col" className="py-2 pr-3 text-right">
                Orders · conversion
              </th>
              <th scope="col" className="py-2 pr-3 text-right">
                Orders · first touch
              </th>
              <th scope="col" className="py-2 pr-3 text-right">
                Revenue · conversion
              </th>
              <th scope="col" className="py-2 pr-3 text-right">
                Revenue · first touch
              </th>
              <th scope="col" className="py-2 pr-3 text-right">
                First touch vs. conversion
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
            {rows.map((row) => {
              const change = relativeChange(row.firstTouch?.revenue ?? 0, row.conversion?.revenue);
              return (
                <tr key={row.channel}>
                  <th scope="row" className="max-w-xs py-2 pr-3 font-medium">
                    <bdi>{enumLabel(row.channel)}</bdi>
                  </th>
                  <td data-label="Orders · conversion" className="py-2 pr-3 text-right tabular-nums max-sm:text-left">
                    {formatNumber(row.conversion?.orders ?? 0)}
                  </td>
                  <td data-label="Orders · first touch" className="py-2 pr-3 text-right tabular-nums max-sm:text-left">
                    {formatNumber(row.firstTouch?.orders ?? 0)}
                  </td>
                  <td data-label="Revenue · conversion" className="py-2 pr-3 text-right tabular-nums max-sm:text-left">
                    {formatCurrency(row.conversion?.revenue ?? 0, currency)}
                  </td>
                  <td data-label="Revenue · first touch" className="py-2 pr-3 text-right tabular-nums max-sm:text-left">
                    {formatCurrency(row.firstTouch?.revenue ?? 0, currency)}
                  </td>
                  <td data-label="First touch vs. conversion" className="py-2 pr-3 text-right tabular-nums max-sm:text-left">
                    {change === null ? "—" : formatPercent(change, 1, true)}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </Card>
  );
}
