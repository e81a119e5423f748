"use client";

import { MIN_WEEKS } from "@/shared/metrics/anomaly";
import { CartesianGrid, Line, LineChart, ReferenceDot, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { AlertMetric, Backtest } from "@/shared/schemas/alert";
import { formatMetric } from "@/shared/alert-message";
import { formatCompact, formatCompactCurrency } from "@/shared/format";

const axisTick = { fill: "currentColor", fontSize: 12 };

/** The backtest on the time chart: the value and its usual level, each period the rule would have fired marked in red. */
export function BacktestChart({ backtest, metric, threshold }: { backtest: Backtest; metric: AlertMetric; threshold?: number }) {
  const fired = backtest.periods.filter((period) => period.fires);
  const learning = backtest.periods.at(-1)?.learningWeeks;
  const format = (value: number) => formatMetric(metric, value, backtest.currency);
  // The axis in the metric's unit: the store's currency for revenue.
  const axisFormat = (value: number) => (metric === "revenue" ? formatCompactCurrency(value, backtest.currency) : formatCompact(value));
  /** A date (or date and hour) on one line, never broken at its hyphen. */
  const nowrap = (text: string) => (
    <span key={text} className="whitespace-nowrap">
      {text}
    </span>
  );
  return (
    <figure className="space-y-3">
      <figcaption className="text-sm">
        {fired.length === 0 ? (
          <>Over the last {backtest.periods.length} periods this rule would not have fired.</>
        ) : (
          <>
            Over the last {backtest.periods.length} periods this rule would have fired on{" "}
            <strong data-testid="backtest-count">
              {fired.length} {fired.length === 1 ? "period" : "periods"}
            </strong>{" "}
            (marked in red), in {backtest.firedOn.length} {backtest.firedOn.length === 1 ? "episode" : "episodes"} starting on:{" "}
            <span data-testid="backtest-dates">
              {backtest.firedOn.flatMap((date, index) => [...(index > 0 ? [", "] : []), nowrap(date)])}
            </span>
          </>
        )}
        {learning !== undefined && (
          <span className="mt-1 block" data-testid="backtest-learning">
            Learning ({learning} of {MIN_WEEKS} weeks): an anomaly rule fires only once {MIN_WEEKS} earlier weeks of the same weekday have
            data.
          </span>
        )}
      </figcaption>
      <div className="h-64 text-slate-500 dark:text-slate-400" data-testid="backtest-chart">
        <ResponsiveContainer width="100%" height="100%">
          {/* Room right and above for a fired period's dot on the last period or the top line. */}
          <LineChart data={backtest.periods} margin={{ top: 10, right: 16, bottom: 0, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="currentColor" strokeOpacity={0.2} />
            <XAxis dataKey="period" tick={axisTick} minTickGap={24} />
            <YAxis tick={axisTick} tickFormatter={axisFormat} width={64} />
            <Tooltip formatter={(value) => format(Number(value))} />
            <Line type="linear" dataKey="value" name="Value" stroke="#4f46e5" dot={false} isAnimationActive={false} />
            <Line
              type="linear"
              dataKey="baseline"
              name="Usual (median of the same weekday)"
              stroke="#94a3b8"
              strokeDasharray="4 4"
              dot={false}
              isAnimationActive={false}
            />
            {threshold !== undefined && Number.isFinite(threshold) && (
              <ReferenceLine
                y={threshold}
                stroke="#b40078"
                strokeDasharray="8 3 2 3"
                label={{ value: `Threshold ${format(threshold)}`, position: "insideTopLeft", fill: "currentColor", fontSize: 11 }}
              />
            )}
            {fired.map((period) => (
              <ReferenceDot key={period.period} x={period.period} y={period.value} r={5} fill="#e11d48" stroke="#fff" />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
      {fired.length > 0 && (
        <table className="w-full text-sm">
          <caption className="sr-only">Periods the rule would have fired on</caption>
          <thead>
            <tr className="text-left text-slate-500 dark:text-slate-400">
              <th scope="col" className="py-1 font-medium">
                Period
              </th>
              <th scope="col" className="py-1 text-right font-medium">
                Value
              </th>
              <th scope="col" className="py-1 text-right font-medium">
                Usual
              </th>
            </tr>
          </thead>
          <tbody>
            {fired.map((period) => (
              <tr key={period.period} className="border-t border-slate-100 dark:border-slate-800">
                <td className="py-1 whitespace-nowrap">{period.period}</td>
                <td className="py-1 text-right tabular-nums">{format(period.value)}</td>
                <td className="py-1 text-right tabular-nums">{period.baseline === null ? "—" : format(period.baseline)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </figure>
  );
}
