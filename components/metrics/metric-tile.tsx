import type { CompactChange } from "@/shared/metrics/comparison";
import { ChangeBadge } from "./change-badge";
import { Sparkline } from "./sparkline";

interface TileChange {
  /** Short name of what is compared with, shown before the change when there are two ("vs prev."). */
  prefix?: string;
  change: CompactChange;
}

/** One key figure: its value, a sparkline of the range, and its change against each comparison. */
export function MetricTile({
  label,
  value,
  daily,
  changes,
}: {
  label: string;
  value: string;
  daily?: readonly number[];
  changes: TileChange[];
}) {
  return (
    <li className="min-w-0 rounded-xl border border-slate-200 bg-white p-3 shadow-sm sm:p-4 dark:border-slate-800 dark:bg-slate-900">
      {/* A figure named by its caption: the label is announced with its value. */}
      <figure>
        <figcaption className="text-xs font-medium uppercase tracking-wide text-slate-600 dark:text-slate-400">{label}</figcaption>
        <p className="mt-1 text-lg font-semibold whitespace-nowrap tabular-nums sm:text-xl" data-testid={`kpi-${label}`}>
          {value}
        </p>
        <div className="mt-1 flex flex-wrap items-end justify-between gap-x-3 gap-y-1">
          <div className="flex flex-col gap-0.5" data-testid={`kpi-change-${label}`}>
            {changes.map((entry, index) => (
              <ChangeBadge key={index} change={entry.change} prefix={entry.prefix} />
            ))}
          </div>
          {daily && daily.length > 1 && <Sparkline values={daily} label={`${label} per day`} />}
        </div>
      </figure>
    </li>
  );
}
