import { DAY_MS } from "@/shared/days";
/**
 * Whether a day's (or hour's) value is out of line with the same weekday (and hour) of earlier weeks, or past a fixed threshold.
 * The baseline is the median of ln(1 + x) over those periods, the spread their MAD × 1.4826 (at least 0.05), so one outlier week does not
 * drag it and moves count by ratio. A value fires when its robust z-score passes the rule's sensitivity in its direction, and only when
 * the value or the baseline reaches the minimum volume.
 */

export const directions = ["up", "down", "both"] as const;
type Direction = (typeof directions)[number];

export const sensitivities = ["low", "medium", "high"] as const;
type Sensitivity = (typeof sensitivities)[number];

/** Robust z-score a value must pass; a higher sensitivity fires on smaller moves. */
const Z_THRESHOLDS: Record<Sensitivity, number> = { low: 4.5, medium: 3.5, high: 2.5 };

/** How many comparable weeks are read back; fewer than MIN_WEEKS with data and nothing fires. */
export const MIN_WEEKS = 4;
export const MAX_WEEKS = 8;

const MAD_TO_SIGMA = 1.4826;
const SPREAD_FLOOR = 0.05;

export interface AnomalySettings {
  direction: Direction;
  sensitivity: Sensitivity;
  /** Below this (in the metric's unit), in both the value and the baseline, nothing fires. */
  minVolume: number;
}

export interface Verdict {
  fires: boolean;
  /** What the value was compared with: the median of the weeks, or the threshold. */
  baseline: number;
  /** Robust z-score (anomaly rules); null for thresholds or without enough history. */
  score: number | null;
  /** Why a rule stayed quiet while it could not judge ("too_little_history", "below_min_volume"). */
  quiet?: "too_little_history" | "below_min_volume";
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Median and scaled MAD of the logarithms of the values (negative values count as 0). */
export function robustBaseline(history: readonly number[]): { median: number; spread: number } {
  const logs = history.map(logOf);
  const center = median(logs);
  const mad = median(logs.map((value) => Math.abs(value - center)));
  return { median: center, spread: Math.max(MAD_TO_SIGMA * mad, SPREAD_FLOOR) };
}

const logOf = (value: number) => Math.log1p(Math.max(0, value));

/** `history`: the same weekday (and hour) of each earlier week that has data, newest first. */
export function anomalyVerdict(value: number, history: readonly number[], settings: AnomalySettings): Verdict {
  if (history.length < MIN_WEEKS) return { fires: false, baseline: median(history), score: null, quiet: "too_little_history" };
  const weeks = history.slice(0, MAX_WEEKS);
  const { median: center, spread } = robustBaseline(weeks);
  const score = (logOf(value) - center) / spread;
  const usual = median(weeks);
  if (Math.max(Math.abs(value), Math.abs(usual)) < settings.minVolume) {
    return { fires: false, baseline: usual, score, quiet: "below_min_volume" };
  }
  const limit = Z_THRESHOLDS[settings.sensitivity];
  const up = score >= limit;
  const down = score <= -limit;
  const fires = settings.direction === "up" ? up : settings.direction === "down" ? down : up || down;
  return { fires, baseline: usual, score };
}

export const thresholdOperators = ["above", "below"] as const;
type ThresholdOperator = (typeof thresholdOperators)[number];

export function thresholdVerdict(value: number, operator: ThresholdOperator, threshold: number): Verdict {
  return { fires: operator === "above" ? value > threshold : value < threshold, baseline: threshold, score: null };
}

/** The same weekday of each of the `weeks` weeks before `date` (YYYY-MM-DD), newest first. */
export function sameWeekdayBefore(date: string, weeks: number = MAX_WEEKS): string[] {
  const at = Date.parse(`${date}T00:00:00Z`);
  return Array.from({ length: weeks }, (_, index) => new Date(at - (index + 1) * 7 * DAY_MS).toISOString().slice(0, 10));
}
