"use client";

import { Bar, BarChart, Cell, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatCompactCurrency, formatCurrency } from "@/shared/format";
import type { topProducts } from "@/shared/metrics/presentation";
import { otherColor, STORE_COLOR, type ColorScheme } from "./chart-colors";
import { ChartTooltip, LABEL_LINES, WrappedTick } from "./chart-parts";

const axisTick = { fill: "currentColor", fontSize: 12 };

/** The top products' bars in the store's colour, the rest as Other in grey; the axis in the store's currency. */
export function TopProductsChart({
  products: top,
  currency,
  scheme,
  show,
}: {
  products: ReturnType<typeof topProducts>;
  currency: string;
  scheme: ColorScheme;
  show: boolean;
}) {
  const money = (value: number) => formatCurrency(value, currency);
  const stage = show ? 2 : 0;
  // Room for each bar's label in up to three lines.
  return (
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
                <Cell key={index} fill={entry.name === "Other" ? otherColor(scheme) : STORE_COLOR[scheme]} />
              ))}
            </Bar>
          </BarChart>
        </ResponsiveContainer>
      )}
    </figure>
  );
}
