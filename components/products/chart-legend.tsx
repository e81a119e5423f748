/** One entry of a chart's legend: a filled swatch for an area, a dashed stroke for a line, each in its colour. */
export type LegendEntry = { key: string; label: string; color: string } & ({ kind: "area" } | { kind: "line"; dash: string });

/**
 * The legend as a list below the chart rather than drawn inside it: it wraps like text, so on
 * a phone every entry stays readable and none overlaps the plot.
 */
export function ChartLegend({ entries }: { entries: readonly LegendEntry[] }) {
  return (
    <ul aria-label="Legend" className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700 dark:text-slate-200">
      {entries.map((entry) => (
        <li key={entry.key} className="flex items-center gap-1.5 whitespace-nowrap">
          <svg aria-hidden="true" width="18" height="10" className="shrink-0 text-slate-600 dark:text-slate-300">
            {entry.kind === "area" ? (
              <rect width="18" height="10" rx="2" fill={entry.color} />
            ) : (
              <line x1="0" y1="5" x2="18" y2="5" stroke={entry.color} strokeWidth="2" strokeDasharray={entry.dash} />
            )}
          </svg>
          {entry.label}
        </li>
      ))}
    </ul>
  );
}
