"use client";

import { useEffect, useState } from "react";
import {
  Area,
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  ComposedChart,
  Legend,
  Line,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { ProductMetricsView, SeriesPoint } from "@/shared/schemas/product-metrics-view";
import { formatCompactCurrency, formatCurrency, formatDate, formatMonth, formatNumber, formatPercent } from "@/shared/format";
import { bucketSeries, channelShares, topProducts } from "@/shared/metrics/presentation";
import { bucketTotals, type Granularity } from "@/shared/metrics/comparison";
import { bucketStart, datesOf } from "@/shared/metrics/date-range";
import { requestIdOf } from "@/client/queries/api-client";
import { enumLabel } from "@/shared/store-locale";
import { Card } from "@/components/ui/card";
import { BAR_COLOR, colorOf, OTHER_BAR_COLOR } from "./chart-colors";
import { ChartTooltip, LABEL_LINES, MarkerLabel, Segmented, WrappedTick } from "./chart-parts";
import type { ChartMarker } from "./chart-markers";

const axisTick = { fill: "currentColor", fontSize: 12 };

/** A comparison period drawn over the current one: its series already moved onto the current dates. */
export interface ChartComparison {
  key: string;
  label: string;
  series: readonly SeriesPoint[];
}

/** Distinct dashes, so the two comparisons can be told apart without colour. */
const DASHES = ["6 4", "2 3"];

const partialWords: Record<Granularity, string> = { day: "today", week: "this week", month: "this month" };

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
  comparisons,
  partialBucket,
  markers,
  target,
}: {
  view: ProductMetricsView;
  currency: string;
  timeZone: string;
  granularity: Granularity;
  onGranularityChange: (granularity: Granularity) => void;
  comparisons: ChartComparison[];
  /** The bucket still filling up (today's), marked rather than read as a drop. */
  partialBucket: string | null;
  /** Actions and notes of the range, each on its bucket. */
  markers: ChartMarker[];
  /** This month's revenue target: drawn per bucket on the revenue chart. */
  target: { perDay: number; amount: number } | null;
}) {
  const [metric, setMetric] = useState<"revenue" | "orders">("revenue");
  const [chartWidth, setChartWidth] = useState<number>();
  const stage = useStagedReveal(2);
  const { points: filled, channels } = bucketSeries(view.series, granularity, metric);
  // Every bucket of the range, with or without rows, so the comparison lines have a place on each.
  const byBucket = new Map(filled.map((point) => [point.bucket, point]));
  const buckets = [...new Set(datesOf({ startDate: view.startDate, endDate: view.endDate }).map((date) => bucketStart(date, granularity)))];
  const lines = comparisons.map((comparison) => bucketTotals(comparison.series, granularity, metric));
  const points = buckets.map((bucket) => ({
    bucket,
    values: byBucket.get(bucket)?.values ?? Object.fromEntries(channels.map((channel) => [channel, 0])),
    compared: lines.map((totals) => totals.get(bucket) ?? 0),
  }));
  const money = (value: number) => formatCurrency(value, currency);
  const format = metric === "revenue" ? money : (value: number) => formatNumber(value);
  const bucketLabel = (bucket: string) => {
    const date = formatDate(`${bucket}T12:00:00Z`, "UTC");
    const name = granularity === "week" ? `Week of ${date}` : granularity === "month" ? formatMonth(`${bucket}T12:00:00Z`, "UTC") : date;
    return bucket === partialBucket ? `${name} (so far)` : name;
  };
  const top = topProducts(view.products, 8);
  const shares = channelShares(view.channels);
  const panel = (name: string) => ({ name, requestId: requestIdOf(view), resetKey: view });
  type Point = (typeof points)[number];

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
            {comparisons.map((comparison) => `; dashed: ${comparison.label}`).join("")}
          </figcaption>
          {stage >= 1 && (
            <ResponsiveContainer width="100%" height="100%" onResize={(width) => setChartWidth(width)}>
              {/* Stacked areas: one shape per channel, however many days, so long ranges stay quick to draw. */}
              <ComposedChart data={points} margin={{ left: 8, right: 8 }}>
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
                  tickFormatter={(value: number) => (metric === "revenue" ? formatCompactCurrency(value, currency) : formatNumber(value))}
                  width={64}
                />
                <Tooltip
                  content={({ active, payload, label }) => (
                    <ChartTooltip active={active} payload={payload} label={label} format={format} title={bucketLabel} />
                  )}
                />
                <Legend
                  wrapperStyle={{ fontSize: 12 }}
                  formatter={(value) => <span className="text-slate-700 dark:text-slate-200">{value}</span>}
                />
                {channels.map((channel, index) => (
                  <Area
                    key={channel}
                    type="monotone"
                    dataKey={(point: Point) => point.values[channel] ?? 0}
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
                {comparisons.map((comparison, index) => (
                  <Line
                    key={comparison.key}
                    type="monotone"
                    dataKey={(point: Point) => point.compared[index] ?? 0}
                    name={comparison.label}
                    stroke="currentColor"
                    strokeWidth={2}
                    strokeDasharray={DASHES[index % DASHES.length]}
                    dot={false}
                    activeDot={false}
                    isAnimationActive={false}
                  />
                ))}
                {markers
                  .filter((marker) => buckets.includes(bucketStart(marker.date, granularity)))
                  .map((marker) => (
                    <ReferenceLine
                      key={marker.key}
                      x={bucketStart(marker.date, granularity)}
                      stroke="currentColor"
                      strokeOpacity={0.6}
                      label={<MarkerLabel marker={marker} />}
                    />
                  ))}
                {target && metric === "revenue" && (
                  <ReferenceLine
                    y={granularity === "month" ? target.amount : granularity === "week" ? target.perDay * 7 : target.perDay}
                    stroke="currentColor"
                    strokeDasharray="8 3 2 3"
                    label={{ value: `Target per ${granularity}`, position: "insideBottomLeft", fill: "currentColor", fontSize: 11 }}
                  />
                )}
                {partialBucket && (
                  <ReferenceLine
                    x={partialBucket}
                    stroke="currentColor"
                    strokeDasharray="2 2"
                    label={{ value: `${partialWords[granularity]} so far`, position: "insideTopRight", fill: "currentColor", fontSize: 11 }}
                  />
                )}
              </ComposedChart>
            </ResponsiveContainer>
          )}
        </figure>
      </Card>
      <Card boundary={panel("The top products chart")} className="xl:col-span-2" title="Top products by revenue">
        {/* Room for each bar's label in up to three lines. */}
        <figure className="text-slate-600 dark:text-slate-300" style={{ height: Math.max(240, top.length * (LABEL_LINES * 14 + 8) + 40) }}>
          <figcaption className="sr-only">The eight products with the most revenue, the rest grouped as Other</figcaption>
          {stage >= 2 && (
            <ResponsiveContainer width="100%" height="100%">
              <BarChart data={top} layout="vertical" margin={{ left: 8, right: 16 }}>
                <XAxis type="number" tick={axisTick} tickFormatter={(value: number) => formatCompactCurrency(value, currency)} />
                <YAxis type="category" dataKey="name" tick={<WrappedTick />} width={170} interval={0} />
                <Tooltip
                  cursor={{ fillOpacity: 0.08 }}
                  content={({ active, payload, label }) => (
                    <ChartTooltip active={active} payload={payload} label={label} format={money} title={(text) => text} />
                  )}
                />
                <Bar dataKey="revenue" name="Revenue" isAnimationActive={false}>
                  {top.map((entry, index) => (
                    <Cell key={index} fill={entry.name === "Other" ? OTHER_BAR_COLOR : BAR_COLOR} />
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
