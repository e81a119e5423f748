import type { MetricsTotals, SeriesPoint } from "@/shared/schemas/product-metrics-view";
import { formatCurrency, formatNumber } from "@/shared/format";
import { compactChange, dailyTotals } from "@/shared/metrics/comparison";
import type { DateRange } from "@/shared/metrics/date-range";
import { MetricTile } from "@/components/metrics/metric-tile";

/** A period the figures are compared with: its totals, a short prefix and the words of the sentence. */
export interface KpiComparison {
  prefix: string;
  against: string;
  totals: MetricsTotals;
}

const ratio = (a: number[], b: number[]) => a.map((value, index) => (b[index]! > 0 ? value / b[index]! : 0));

/** Revenue, orders, units, average order value and units per order: value, sparkline of the range, change per comparison. */
export function KpiCards({
  totals,
  series,
  range,
  comparisons,
  currency,
  title,
}: {
  totals: MetricsTotals;
  series: readonly SeriesPoint[];
  range: DateRange;
  comparisons: KpiComparison[];
  currency: string;
  title?: string;
}) {
  const revenue = dailyTotals(series, range, "revenue");
  const orders = dailyTotals(series, range, "orders");
  const units = dailyTotals(series, range, "units");
  const cards = [
    { label: "Revenue", value: formatCurrency(totals.revenue, currency), daily: revenue, pick: (t: MetricsTotals) => t.revenue },
    { label: "Orders", value: formatNumber(totals.orders), daily: orders, pick: (t: MetricsTotals) => t.orders },
    { label: "Units", value: formatNumber(totals.units), daily: units, pick: (t: MetricsTotals) => t.units },
    {
      label: "Average order value",
      value: totals.averageOrderValue === null ? "—" : formatCurrency(totals.averageOrderValue, currency),
      daily: ratio(revenue, orders),
      pick: (t: MetricsTotals) => t.averageOrderValue,
    },
    {
      label: "Units per order",
      value: totals.unitsPerOrder === null ? "—" : formatNumber(totals.unitsPerOrder, 2),
      daily: ratio(units, orders),
      pick: (t: MetricsTotals) => t.unitsPerOrder,
    },
  ];
  return (
    <section aria-label={title ?? "Key figures"}>
      {title && <h2 className="mb-2 text-sm font-semibold text-slate-600 dark:text-slate-300">{title}</h2>}
      <ul className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-5">
        {cards.map((card) => (
          <MetricTile
            key={card.label}
            label={card.label}
            value={card.value}
            daily={card.daily}
            changes={comparisons.map((comparison) => ({
              prefix: comparisons.length > 1 ? comparison.prefix : undefined,
              change: compactChange(card.pick(totals), card.pick(comparison.totals), comparison.against),
            }))}
          />
        ))}
      </ul>
    </section>
  );
}
