"use client";

import { useEffect, useState } from "react";
import { Area, AreaChart, Bar, BarChart, CartesianGrid, Cell, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { ProductMetricsView } from "@/lib/schemas/product-metrics-view";
import { formatCompact, formatCurrency, formatDate, formatMonth, formatNumber, formatPercent } from "@/lib/format";
import { bucketSeries, channelShares, topProducts, type ChartPoint } from "@/lib/metrics/presentation";
import { requestIdOf } from "@/lib/queries/api-client";
import { enumLabel } from "@/lib/store-locale";
import { Card } from "@/components/ui/card";

const CHANNEL_COLORS: Record<string, string> = {
  facebook: "#4f46e5",
  google: "#0ea5e9",
  tiktok: "#ec4899",
  linkedin: "#0d9488",
  pinterest: "#e11d48",
  snapchat: "#eab308",
  email: "#8b5cf6",
  organic: "#64748b",
};
/** Channels the dashboard does not know are drawn in neutral greys, never dropped. */
const FALLBACK_COLORS = ["#94a3b8", "#475569", "#cbd5e1", "#334155"];
const colorOf = (channel: string, index: number) => CHANNEL_COLORS[channel] ?? FALLBACK_COLORS[index % FALLBACK_COLORS.length]!;

const axisTick = { fill: "currentColor", fontSize: 12 };

type Granularity = "day" | "week" | "month";

interface TooltipProps {
  active?: boolean;
  payload?: ReadonlyArray<{ dataKey?: unknown; name?: unknown; value?: unknown; color?: string }>;
  label?: unknown;
  format: (value: number) => string;
  title: (label: string) => string;
}

function ChartTooltip({ active, payload, label, format, title }: TooltipProps) {
  if (!active || !payload?.length) return null;
  const rows = payload.filter((entry) => Number(entry.value) !== 0);
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-2 text-xs shadow-md dark:border-slate-700 dark:bg-slate-900">
      <p className="mb-1 font-semibold">{title(String(label))}</p>
      {rows.map((entry, index) => (
        <p key={index} className="flex justify-between gap-4">
          <bdi style={{ color: entry.color }}>{String(entry.name)}</bdi>
          <span className="tabular-nums">{format(Number(entry.value))}</span>
        </p>
      ))}
    </div>
  );
}

function Segmented<T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T;
  options: { value: T; label: string }[];
  onChange: (value: T) => void;
}) {
  return (
    <div role="radiogroup" aria-label={label} className="inline-flex rounded-lg border border-slate-300 p-0.5 dark:border-slate-700">
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          role="radio"
          aria-checked={value === option.value}
          onClick={() => onChange(option.value)}
          className={`rounded-md px-2.5 py-1 text-xs font-medium ${value === option.value ? "bg-indigo-600 text-white" : "text-slate-700 dark:text-slate-300"}`}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}

/** Room for one date label ("Sep 30, 2026" at 12 px) and a gap, and the y axis with the margins. */
const TICK_SPACING_PX = 110;
const PLOT_INSET_PX = 72;

/** Every how many points a date label fits the width; eight labels until the width is known. */
function tickInterval(points: number, width: number | undefined): number {
  const labels = width === undefined ? 8 : Math.max(1, Math.floor((width - PLOT_INSET_PX) / TICK_SPACING_PX));
  return Math.max(0, Math.ceil(points / labels) - 1);
}

/** Reveals `count` parts one task apart, so that no single task draws every chart. */
function useStagedReveal(count: number): number {
  const [shown, setShown] = useState(0);
  useEffect(() => {
    if (shown >= count) return;
    const timer = setTimeout(() => setShown(shown + 1), 0);
    return () => clearTimeout(timer);
  }, [shown, count]);
  return shown;
}

/** The charts of the product-metrics page; loaded only where they are drawn. */
export default function ProductCharts({
  view,
  currency,
  timeZone,
  granularity,
  onGranularityChange,
}: {
  view: ProductMetricsView;
  currency: string;
  timeZone: string;
  granularity: Granularity;
  onGranularityChange: (granularity: Granularity) => void;
}) {
  const [metric, setMetric] = useState<"revenue" | "orders">("revenue");
  const [chartWidth, setChartWidth] = useState<number>();
  const stage = useStagedReveal(2);
  const { points, channels } = bucketSeries(view.series, granularity, metric);
  const money = (value: number) => formatCurrency(value, currency);
  const format = metric === "revenue" ? money : (value: number) => formatNumber(value);
  const bucketLabel = (bucket: string) => {
    const date = formatDate(`${bucket}T12:00:00Z`, "UTC");
    return granularity === "week" ? `Week of ${date}` : granularity === "month" ? formatMonth(`${bucket}T12:00:00Z`, "UTC") : date;
  };
  const top = topProducts(view.products, 8);
  const shares = channelShares(view.channels);
  const panel = (name: string) => ({ name, requestId: requestIdOf(view), resetKey: view });

  return (
    <div className="grid grid-cols-1 gap-6 xl:grid-cols-3">
      <Card
        boundary={panel("The chart over time")}
        className="xl:col-span-3"
        title={`${metric === "revenue" ? "Revenue" : "Orders"} over time by channel`}
        actions={
          <div className="flex flex-wrap gap-2">
            <Segmented
              label="Metric"
              value={metric}
              onChange={setMetric}
              options={[
                { value: "revenue", label: "Revenue" },
                { value: "orders", label: "Orders" },
              ]}
            />
            <Segmented
              label="Granularity"
              value={granularity}
              onChange={onGranularityChange}
              options={[
                { value: "day", label: "Day" },
                { value: "week", label: "Week" },
                { value: "month", label: "Month" },
              ]}
            />
          </div>
        }
      >
        <figure data-testid="time-chart" className="h-72 text-slate-600 dark:text-slate-300">
          <figcaption className="sr-only">
            {metric} per {granularity} and channel, {view.startDate} to {view.endDate}, in {timeZone}
          </figcaption>
          {stage >= 1 && (
            <ResponsiveContainer width="100%" height="100%" onResize={(width) => setChartWidth(width)}>
              {/* Stacked areas: one shape per channel, however many days, so long ranges stay quick to draw. */}
              <AreaChart data={points} margin={{ left: 8, right: 8 }}>
                <CartesianGrid strokeDasharray="3 3" stroke="currentColor" strokeOpacity={0.15} vertical={false} />
                {/* An interval from the chart's width, without recharts measuring every label's text. */}
                <XAxis
                  dataKey="bucket"
                  tick={axisTick}
                  tickFormatter={(bucket: string) => formatDate(`${bucket}T12:00:00Z`, "UTC")}
                  interval={tickInterval(points.length, chartWidth)}
                />
                <YAxis
                  tick={axisTick}
                  tickFormatter={(value: number) => (metric === "revenue" ? formatCompact(value) : formatNumber(value))}
                  width={56}
                />
                <Tooltip
                  content={({ active, payload, label }) => (
                    <ChartTooltip active={active} payload={payload} label={label} format={format} title={bucketLabel} />
                  )}
                />
                <Legend wrapperStyle={{ fontSize: 12 }} />
                {channels.map((channel, index) => (
                  <Area
                    key={channel}
                    type="monotone"
                    dataKey={(point: ChartPoint) => point.values[channel] ?? 0}
                    name={enumLabel(channel)}
                    stackId="channels"
                    stroke={colorOf(channel, index)}
                    fill={colorOf(channel, index)}
                    fillOpacity={0.75}
                    dot={false}
                    activeDot={false}
                    isAnimationActive={false}
                  />
                ))}
              </AreaChart>
            </ResponsiveContainer>
          )}
        </figure>
      </Card>
      <Card boundary={panel("The top products chart")} className="xl:col-span-2" title="Top products by revenue">
        <figure className="h-80 text-slate-600 dark:text-slate-300">
          <figcaption className="sr-only">The eight products with the most revenue, the rest grouped as Other</figcaption>
          {stage >= 2 && (
            <ResponsiveContainer width="100%" height="100%">
              <BarChart data={top} layout="vertical" margin={{ left: 8, right: 16 }}>
                <XAxis type="number" tick={axisTick} tickFormatter={(value: number) => formatCompact(value)} />
                <YAxis
                  type="category"
                  dataKey="name"
                  tick={axisTick}
                  width={170}
                  interval={0}
                  tickFormatter={(name: string) => (name.length > 26 ? `${name.slice(0, 25)}…` : name)}
                />
                <Tooltip
                  cursor={{ fillOpacity: 0.08 }}
                  content={({ active, payload, label }) => (
                    <ChartTooltip active={active} payload={payload} label={label} format={money} title={(text) => text} />
                  )}
                />
                <Bar dataKey="revenue" name="Revenue" isAnimationActive={false}>
                  {top.map((entry, index) => (
                    <Cell key={index} fill={entry.name === "Other" ? "#94a3b8" : "#6366f1"} />
                  ))}
                </Bar>
              </BarChart>
            </ResponsiveContainer>
          )}
        </figure>
      </Card>
      <Card boundary={panel("The channel shares")} title="Channel share of revenue">
        <ul className="space-y-2" aria-label="Channel share of revenue">
          {shares.map((channel, index) => (
            <li key={channel.channel}>
              <div className="flex justify-between gap-3 text-sm">
                <span className="flex min-w-0 items-center gap-2">
                  <span
                    aria-hidden="true"
                    className="inline-block h-2.5 w-2.5 rounded-full"
                    style={{ background: colorOf(channel.channel, index) }}
                  />
                  <bdi className="wrap-anywhere">{enumLabel(channel.channel)}</bdi>
                </span>
                <span className="text-right tabular-nums wrap-anywhere">
                  {formatPercent(channel.share)} · {money(channel.revenue)}
                </span>
              </div>
              <div className="mt-1 h-2 rounded-full bg-slate-100 dark:bg-slate-800" aria-hidden="true">
                <div
                  className="h-2 rounded-full"
                  style={{ width: `${Math.min(100, Math.max(0, channel.share * 100))}%`, background: colorOf(channel.channel, index) }}
                />
              </div>
            </li>
          ))}
        </ul>
      </Card>
    </div>
  );
}
