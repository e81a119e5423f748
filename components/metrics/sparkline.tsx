import type { CSSProperties } from "react";
import { STORE_COLOR } from "@/components/products/chart-colors";

/** The store's own colour in each scheme (the palette's, so its distance from the others is checked). */
const storeColor = { "--spark-light": STORE_COLOR.light, "--spark-dark": STORE_COLOR.dark } as CSSProperties;

/** A small line of one value per day, drawn without the chart library: it shows on every tile and list row. */
export function Sparkline({ values, label, className = "" }: { values: readonly number[]; label: string; className?: string }) {
  const width = 96;
  const height = 28;
  if (values.length === 0) return null;
  const max = Math.max(...values);
  const min = Math.min(0, ...values);
  const span = max - min || 1;
  const step = values.length > 1 ? width / (values.length - 1) : 0;
  const points = values.map(
    (value, index) => `${(index * step).toFixed(1)},${(height - 2 - ((value - min) / span) * (height - 4)).toFixed(1)}`,
  );
  return (
    <svg
      viewBox={`0 0 ${width} ${height}`}
      width={width}
      height={height}
      role="img"
      aria-label={label}
      style={storeColor}
      className={`shrink-0 overflow-visible text-(--spark-light) dark:text-(--spark-dark) ${className}`}
    >
      <polyline points={points.join(" ")} fill="none" stroke="currentColor" strokeWidth={1.75} strokeLinejoin="round" />
    </svg>
  );
}
