"use client";

import type { ChannelSummary } from "@/shared/schemas/product-metrics-view";
import { formatPercent } from "@/shared/format";
import { channelShares } from "@/shared/metrics/presentation";
import { enumLabel } from "@/shared/store-locale";

/** Each channel's share of revenue, in the colour the time chart gives it ("Other"'s grey for the grouped ones). */
export function ChannelShares({
  channels,
  colorOf,
  money,
}: {
  channels: readonly ChannelSummary[];
  colorOf: (channel: string) => string;
  money: (value: number) => string;
}) {
  return (
    <ul className="space-y-2" aria-label="Channel share of revenue">
      {channelShares(channels).map((channel) => (
        <li key={channel.channel}>
          <div className="flex justify-between gap-3 text-sm">
            <span className="flex min-w-0 items-center gap-2">
              <span aria-hidden="true" className="inline-block h-2.5 w-2.5 rounded-full" style={{ background: colorOf(channel.channel) }} />
              <bdi className="wrap-anywhere">{enumLabel(channel.channel)}</bdi>
            </span>
            <span className="text-right tabular-nums wrap-anywhere">
              {formatPercent(channel.share)} · {money(channel.revenue)}
            </span>
          </div>
          <div className="mt-1 h-2 rounded-full bg-slate-100 dark:bg-slate-800" aria-hidden="true">
            <div
              className="h-2 rounded-full"
              style={{ width: `${Math.min(100, Math.max(0, channel.share * 100))}%`, background: colorOf(channel.channel) }}
            />
          </div>
        </li>
      ))}
    </ul>
  );
}
