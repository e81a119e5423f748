import type { CompactChange } from "@/shared/metrics/comparison";

const tones: Record<CompactChange["tone"], string> = {
  up: "text-emerald-700 dark:text-emerald-400",
  down: "text-rose-700 dark:text-rose-400",
  flat: "text-slate-600 dark:text-slate-300",
  none: "text-slate-500 dark:text-slate-400",
};

/** "↑3.1%" on screen; the whole sentence in the tooltip and for screen readers. */
export function ChangeBadge({ change, prefix }: { change: CompactChange; prefix?: string }) {
  return (
    <span className={`text-xs font-semibold whitespace-nowrap tabular-nums ${tones[change.tone]}`} title={change.sentence}>
      {prefix && <span className="font-normal text-slate-500 dark:text-slate-400">{prefix} </span>}
      <span aria-hidden="true">{change.text}</span>
      <span className="sr-only">{change.sentence}</span>
    </span>
  );
}
