"use client";

import { useState } from "react";
import { Area, CartesianGrid, ComposedChart, Line, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { ProductMetricsView, SeriesPoint } from "@/shared/schemas/product-metrics-view";
import { formatCompactCurrency, formatCurrency, formatDate, formatMonth, formatNumber } from "@/shared/format";
import { bucketSeries, topProducts } from "@/shared/metrics/presentation";
import { groupChannels, groupValues, OTHER_KEY, partialEdges } from "@/shared/metrics/channel-groups";
import { bucketTotals, type Granularity } from "@/shared/metrics/comparison";
import { bucketStart, datesOf } from "@/shared/metrics/date-range";
import { targetPerBucket } from "@/shared/metrics/target-line";
import { requestIdOf } from "@/client/queries/api-client";
import { enumLabel } from "@/shared/store-locale";
import { Card } from "@/components/ui/card";
import { channelColors, LINE_COLORS, MAX_CHANNEL_SERIES, OTHER_CHANNEL, otherColor } from "./chart-colors";
import { ChannelShares } from "./channel-shares";
import { TopProductsChart } from "./top-products-chart";
import { useColorScheme } from "./color-scheme";
import { ChartLegend, type LegendEntry } from "./chart-legend";
import { ChartTooltip, isolated, MarkerLabel, Segmented, TargetDot, tickInterval, useStagedReveal } from "./chart-parts";
import type { ChartMarker } from "./chart-markers";

const axisTick = { fill: "currentColor", fontSize: 12 };

/** A comparison period drawn over the current one: its series already moved onto the current dates. */
export interface ChartComparison {
  key: string;
  label: string;
  series: readonly SeriesPoint[];
}

/** Distinct dashes, so the two comparisons can be told apart without colour (and by colour, LINE_COLORS). */
const DASHES = ["6 4", "2 3"];
const TARGET_DASH = "8 3 2 3";
/** Room right of the plot for the last date label, centred on the last bucket. */
const RIGHT_MARGIN = 48;
const partialWords: Record<Granularity, string> = { day: "today", week: "this week", month: "this month" };

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
  targets,
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
  /** The monthly revenue targets of the range's months (YYYY-MM → amount): "Target" on the revenue chart, pro-rated to each bucket's days, only where a month has one. */
  targets: ReadonlyMap<string, number>;
}) {
  const [metric, setMetric] = useState<"revenue" | "orders">("revenue");
  const [chartWidth, setChartWidth] = useState<number>();
  const stage = useStagedReveal(2);
  const scheme = useColorScheme();
  const range = { startDate: view.startDate, endDate: view.endDate };
  const { points: filled, channels: seen } = bucketSeries(view.series, granularity, metric);
  // Colours by channel, on every range; the largest channels by revenue are drawn, above six the smallest as "Other".
  const revenueOf = new Map(view.channels.map((channel) => [channel.channel, channel.revenue]));
  const all = [...new Set([...view.channels.map((channel) => channel.channel), ...seen])];
  const { drawn, grouped } = groupChannels(
    all.map((channel) => ({ channel, revenue: revenueOf.get(channel) ?? 0 })),
    MAX_CHANNEL_SERIES,
  );
  const seriesKeys = grouped.length > 0 ? [...drawn, OTHER_KEY] : drawn;
  const channelColor = channelColors(all, scheme);
  const colorOf = (key: string) => (key === OTHER_KEY ? otherColor(scheme) : channelColor(key));
  const seriesName = (key: string) => (key === OTHER_KEY ? OTHER_CHANNEL : enumLabel(key));
  // Every bucket of the range, with or without rows, so the comparison lines have a place on each.
  const byBucket = new Map(filled.map((point) => [point.bucket, point]));
  const buckets = [...new Set(datesOf(range).map((date) => bucketStart(date, granularity)))];
  const lines = comparisons.map((comparison) => bucketTotals(comparison.series, granularity, metric));
  const targetOf = targetPerBucket(range, granularity, targets);
  const showTarget = metric === "revenue" && [...targetOf.values()].some((value) => value !== null);
  const points = buckets.map((bucket) => ({
    bucket,
    values: groupValues(byBucket.get(bucket)?.values ?? {}, drawn),
    compared: lines.map((totals) => totals.get(bucket) ?? 0),
    target: targetOf.get(bucket) ?? null,
  }));
  const lineColor = (key: string) => (key === "year" ? LINE_COLORS[scheme].yearEarlier : LINE_COLORS[scheme].previous);
  const edges = partialEdges(range, granularity);
  const shortDate = (date: string) => formatDate(`${date}T12:00:00Z`, "UTC");
  const legend: LegendEntry[] = [
    ...seriesKeys.map((key) => ({ key, label: seriesName(key), color: colorOf(key), kind: "area" as const })),
    ...comparisons.map((comparison, index) => ({
      key: comparison.key,
      label: comparison.label,
      dash: DASHES[index % DASHES.length]!,
      color: lineColor(comparison.key),
      kind: "line" as const,
    })),
    ...(showTarget
      ? [{ key: "target", label: "Target", dash: TARGET_DASH, color: LINE_COLORS[scheme].target, kind: "line" as const }]
      : []),
  ];
  const money = (value: number) => formatCurrency(value, currency);
  const format = metric === "revenue" ? money : (value: number) => formatNumber(value);
  const periodName = (bucket: string) =>
    granularity === "week"
      ? `Week of ${shortDate(bucket)}`
      : granularity === "month"
        ? formatMonth(`${bucket}T12:00:00Z`, "UTC")
        : shortDate(bucket);
  const bucketLabel = (bucket: string) => {
    const name = periodName(bucket);
    const edge = edges.find((candidate) => candidate.bucket === bucket);
    if (bucket === partialBucket) return `${name} (so far)`;
    return edge ? `${name} (partial: ${shortDate(edge.from)} to ${shortDate(edge.to)})` : name;
  };
  const top = topProducts(view.products, 8);
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
              <ComposedChart data={points} margin={{ left: 8, right: RIGHT_MARGIN, top: 8 }}>
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
                {seriesKeys.map((key) => (
                  <Area
                    key={key}
                    type="linear"
                    dataKey={(point: Point) => point.values[key] ?? 0}
                    name={seriesName(key)}
                    stackId="channels"
                    stroke={colorOf(key)}
                    fill={colorOf(key)}
                    fillOpacity={0.75}
                    dot={false}
                    activeDot={false}
                    isAnimationActive={false}
                  />
                ))}
                {comparisons.map((comparison, index) => (
                  <Line
                    key={comparison.key}
                    type="linear"
                    dataKey={(point: Point) => point.compared[index] ?? 0}
                    name={comparison.label}
                    stroke={lineColor(comparison.key)}
                    strokeWidth={2}
                    strokeDasharray={DASHES[index % DASHES.length]}
                    dot={false}
                    activeDot={false}
                    isAnimationActive={false}
                  />
                ))}
                {markers
                  .map((marker) => ({ marker, bucket: bucketStart(marker.date, granularity) }))
                  .filter(({ bucket }) => buckets.includes(bucket))
                  .map(({ marker, bucket }, index, shown) => (
                    <ReferenceLine
                      key={marker.key}
                      x={bucket}
                      stroke="currentColor"
                      strokeOpacity={0.6}
                      label={
                        <MarkerLabel
                          marker={marker}
                          before={bucket === buckets.at(-1)}
                          lower={bucket === partialBucket}
                          row={shown.slice(0, index).filter((other) => other.bucket === bucket).length}
                        />
                      }
                    />
                  ))}
                {showTarget && (
                  <Line
                    type="linear"
                    dataKey={(point: Point) => point.target}
                    name="Target"
                    stroke={LINE_COLORS[scheme].target}
                    strokeWidth={2}
                    strokeDasharray={TARGET_DASH}
                    connectNulls={false}
                    // A month alone with a target (by month) is one point: drawn as a dot, not left out.
                    dot={(props: { cx?: number; cy?: number; index?: number }) => (
                      <TargetDot
                        key={`target-${props.index}`}
                        {...props}
                        isolated={isolated(points, props.index ?? -1)}
                        color={LINE_COLORS[scheme].target}
                      />
                    )}
                    activeDot={false}
                    isAnimationActive={false}
                  />
                )}
                {/* A week or month the range cuts is marked partial on the chart: its lower figure is fewer days, not a fall. */}
                {edges
                  .filter((edge) => edge.bucket !== partialBucket)
                  .map((edge) => (
                    <ReferenceLine
                      key={`partial-${edge.bucket}`}
                      x={edge.bucket}
                      stroke="currentColor"
                      strokeDasharray="2 2"
                      label={{
                        value: "partial",
                        position: edge.bucket === buckets[0] ? "insideTopLeft" : "insideTopRight",
                        fill: "currentColor",
                        fontSize: 11,
                      }}
                    />
                  ))}
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
        <ChartLegend entries={legend} />
        {edges.length > 0 && (
          <p className="mt-2 text-xs text-slate-600 dark:text-slate-400" data-testid="partial-periods">
            Partial {granularity === "week" ? "weeks" : "months"}:{" "}
            {edges.map((edge) => `${periodName(edge.bucket)} holds ${shortDate(edge.from)} to ${shortDate(edge.to)} only`).join("; ")}.
          </p>
        )}
      </Card>
      <Card boundary={panel("The top products chart")} className="xl:col-span-2" title="Top products by revenue">
        <TopProductsChart products={top} currency={currency} scheme={scheme} show={stage >= 2} />
      </Card>
      <Card boundary={panel("The channel shares")} title="Channel share of revenue">
        <ChannelShares channels={view.channels} colorOf={colorOf} money={money} />
      </Card>
    </div>
  );
}
