"use client";

import { useEffect, useState } from "react";
import { wrapLabel } from "@/shared/metrics/presentation";
import type { ChartMarker } from "./chart-markers";

interface TooltipProps {
  active?: boolean;
  payload?: ReadonlyArray<{ dataKey?: unknown; name?: unknown; value?: unknown; color?: string; strokeDasharray?: unknown }>;
  label?: unknown;
  format: (value: number) => string;
  title: (label: string) => string;
}

export function ChartTooltip({ active, payload, label, format, title }: TooltipProps) {
  if (!active || !payload?.length) return null;
  const rows = payload.filter((entry) => Number(entry.value) !== 0);
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-2 text-xs text-slate-900 shadow-md dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100">
      <p className="mb-1 font-semibold">{title(String(label))}</p>
      {rows.map((entry, index) => (
        <p key={index} className="flex justify-between gap-4">
          {/* Dashed series (the comparisons) read in the text colour: currentColor would be the tooltip's. */}
          <bdi style={{ color: entry.color === "currentColor" ? undefined : entry.color }}>{String(entry.name)}</bdi>
          <span className="tabular-nums">{format(Number(entry.value))}</span>
        </p>
      ))}
    </div>
  );
}

export function Segmented<T extends string>({
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

/** Characters per line of a bar label at 12 px in the label column, and lines before an ellipsis. */
const LABEL_CHARS = 24;
export const LABEL_LINES = 3;
const LINE_HEIGHT = 14;

/** A bar's label in up to three lines, broken between words; the full name in its own tooltip. */
export function WrappedTick({ x = 0, y = 0, payload }: { x?: number; y?: number; payload?: { value?: unknown } }) {
  const text = String(payload?.value ?? "");
  const lines = wrapLabel(text, LABEL_CHARS, LABEL_LINES);
  return (
    <text x={x} y={y} textAnchor="end" fill="currentColor" fontSize={12} data-testid="bar-label">
      <title>{text}</title>
      {lines.map((line, index) => (
        <tspan key={index} x={x} dy={index === 0 ? -((lines.length - 1) * LINE_HEIGHT) / 2 + 4 : LINE_HEIGHT}>
          {line}
        </tspan>
      ))}
    </text>
  );
}

/** The label of a marker line: a link to its Activity entry for an action, plain for a note. */
export function MarkerLabel({
  viewBox,
  marker,
  before = false,
  lower = false,
  row = 0,
}: {
  viewBox?: { x?: number; y?: number };
  marker: ChartMarker;
  /** Written left of its line (at the chart's right edge, where the right side has no room). */
  before?: boolean;
  /** A line lower (beside the "so far" label of the same bucket). */
  lower?: boolean;
  /** Its place among the markers of the same bucket: each a line below the one before, never on top of it. */
  row?: number;
}) {
  const x = (viewBox?.x ?? 0) + (before ? -3 : 3);
  const y = (viewBox?.y ?? 0) + (lower ? 26 : 12) + row * 13;
  const text = (
    <text x={x} y={y} fontSize={11} fill="currentColor" textAnchor={before ? "end" : "start"}>
      {marker.label}
    </text>
  );
  return marker.href ? (
    <a href={marker.href} data-testid="chart-marker" aria-label={`${marker.label} on ${marker.date}: open its Activity entry`}>
      {text}
    </a>
  ) : (
    <g data-testid="chart-marker">{text}</g>
  );
}

/** Whether the point at `index` has a value and neither neighbour has one: a line through it would not show. */
export const isolated = (points: readonly { target: number | null }[], index: number) =>
  points[index]?.target != null && points[index - 1]?.target == null && points[index + 1]?.target == null;

/** The Target line's dot: drawn only where its point stands alone (a month with a target between months without). */
export function TargetDot({ cx, cy, isolated: alone, color }: { cx?: number; cy?: number; isolated: boolean; color: string }) {
  if (!alone || cx === undefined || cy === undefined) return <g />;
  return <line x1={cx - 10} x2={cx + 10} y1={cy} y2={cy} stroke={color} strokeWidth={3} data-testid="target-alone" />;
}

/** Room for one date label ("Sep 30, 2026" at 12 px) and a gap, and the y axis with the margins. */
const TICK_SPACING_PX = 110;
const PLOT_INSET_PX = 72;

/** Every how many points a date label fits the width; eight labels until the width is known. */
export function tickInterval(points: number, width: number | undefined): number {
  const labels = width === undefined ? 8 : Math.max(1, Math.floor((width - PLOT_INSET_PX) / TICK_SPACING_PX));
  return Math.max(0, Math.ceil(points / labels) - 1);
}

/** Reveals `count` parts one task apart, so that no single task draws every chart. */
export function useStagedReveal(count: number): number {
  const [shown, setShown] = useState(0);
  useEffect(() => {
    if (shown >= count) return;
    const timer = setTimeout(() => setShown(shown + 1), 0);
    return () => clearTimeout(timer);
  }, [shown, count]);
  return shown;
}
