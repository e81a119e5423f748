import type { MetricsTotals } from "@/lib/schemas/product-metrics-view";
import { formatCurrency, formatNumber, formatPercent } from "@/lib/format";
import { relativeChange } from "@/lib/metrics/presentation";

function Delta({ change }: { change: number | null }) {
  if (change === null) return <span className="text-xs text-slate-500 dark:text-slate-400">no comparison figure</span>;
  const up = change >= 0;
  return (
    <span className={`text-xs font-medium ${up ? "text-emerald-700 dark:text-emerald-400" : "text-rose-700 dark:text-rose-400"}`}>
      <span aria-hidden="true">{up ? "▲" : "▼"}</span> {formatPercent(Math.abs(change))} {up ? "more" : "less"} than the comparison period
    </span>
  );
}

/** Revenue, orders, units, average order value and units per order, with their change when compared. */
export function KpiCards({
  totals,
  comparison,
  currency,
  title,
}: {
  totals: MetricsTotals;
  comparison?: MetricsTotals;
  currency: string;
  title?: string;
}) {
  const cards = [
    { label: "Revenue", value: formatCurrency(totals.revenue, currency), current: totals.revenue, previous: comparison?.revenue },
    { label: "Orders", value: formatNumber(totals.orders), current: totals.orders, previous: comparison?.orders },
    { label: "Units", value: formatNumber(totals.units), current: totals.units, previous: comparison?.units },
    {
      label: "Average order value",
      value: totals.averageOrderValue === null ? "—" : formatCurrency(totals.averageOrderValue, currency),
      current: totals.averageOrderValue,
      previous: comparison?.averageOrderValue,
    },
    {
      label: "Units per order",
      value: totals.unitsPerOrder === null ? "—" : formatNumber(totals.unitsPerOrder, 2),
      current: totals.unitsPerOrder,
      previous: comparison?.unitsPerOrder,
    },
  ];
  return (
    <section aria-label={title ?? "Key figures"}>
      {title && <h2 className="mb-2 text-sm font-semibold text-slate-600 dark:text-slate-300">{title}</h2>}
      <ul className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-5">
        {cards.map((card) => (
          <li
            key={card.label}
            className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900"
          >
            {/* A figure named by its caption: the label is announced with its value. */}
            <figure>
              <figcaption className="text-xs font-medium uppercase tracking-wide text-slate-600 dark:text-slate-400">
                {card.label}
              </figcaption>
              <p className="mt-1 text-xl font-semibold tabular-nums" data-testid={`kpi-${card.label}`}>
                {card.value}
              </p>
              {comparison && <Delta change={relativeChange(card.current, card.previous)} />}
            </figure>
          </li>
        ))}
      </ul>
    </section>
  );
}
