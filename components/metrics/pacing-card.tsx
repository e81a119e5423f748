"use client";

import { useState, type FormEvent } from "react";
import { useProductMetrics } from "@/client/queries/product-metrics";
import { useSetTarget, useTargets } from "@/client/queries/targets";
import { requestIdOf } from "@/client/queries/api-client";
import { formatCurrency, formatDate, formatDateTime, formatMonth, formatPercent } from "@/shared/format";
import { addDays, todayIn } from "@/shared/metrics/date-range";
import { dailyRevenue, dayFractionAt, HISTORY_DAYS, monthRange, pacing, type Pacing } from "@/shared/metrics/pacing";
import type { RevenueTarget } from "@/shared/schemas/target";
import { epochMsToZonedLocal } from "@/shared/time-zone";
import { Badge, Card } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { ErrorPanel } from "@/components/ui/error-panel";
import { Skeleton } from "@/components/ui/states";

const statusWords = { ahead: "Ahead", on_track: "On track", behind: "Behind" } as const;
const statusTone = { ahead: "good", on_track: "info", behind: "warn" } as const;

function PacingLines({ result, target, currency, zone }: { result: Pacing; target: RevenueTarget; currency: string; zone: string }) {
  const money = (value: number) => formatCurrency(value, currency);
  const monthEnd = formatDate(`${monthRange(result.month).endDate}T12:00:00Z`, "UTC");
  return (
    <div className="space-y-1 text-sm" data-testid={`pacing-${target.channel ?? "store"}`}>
      <p className="flex flex-wrap items-center gap-2 font-medium">
        <span>{target.channel ? `Channel ${target.channel}` : "Whole store"}</span>
        <Badge tone={statusTone[result.status]}>{statusWords[result.status]}</Badge>
      </p>
      <p>
        Month to date <strong className="tabular-nums">{money(result.monthToDate)}</strong> against{" "}
        <span className="tabular-nums">{money(result.proRatedTarget)}</span> expected by now
        {result.paceRatio !== null && <> ({formatPercent(result.paceRatio, 0)} of pace)</>}.
      </p>
      <p>
        Projected by {monthEnd}: <strong className="tabular-nums">{money(result.projected)}</strong>,{" "}
        {formatPercent(result.projectedRatio, 0)} of the <span className="tabular-nums">{money(target.amount)}</span> target
        {result.weighted ? ", each day weighted by its weekday over the last 8 weeks." : ", at the month's own daily rate."}
      </p>
      <p className="text-xs text-slate-600 dark:text-slate-400">
        Set by <span className="break-all">{target.setByEmail}</span>, {formatDateTime(target.setAt, zone)}
      </p>
    </div>
  );
}

function TargetForm({
  month,
  channels,
  onSave,
  pending,
}: {
  month: string;
  channels: string[];
  onSave: (amount: number, channel?: string) => void;
  pending: boolean;
}) {
  const [amount, setAmount] = useState("");
  const [channel, setChannel] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = Number(amount);
    if (value > 0) onSave(value, channel || undefined);
  };
  const field = "rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-900";
  return (
    <form method="post" onSubmit={submit} className="flex flex-wrap items-end gap-2" aria-label="Set a revenue target">
      <div>
        <label htmlFor="target-amount" className="block text-xs font-medium text-slate-600 dark:text-slate-400">
          Target for {formatMonth(`${month}-15T12:00:00Z`, "UTC")}
        </label>
        <input
          id="target-amount"
          type="number"
          min="0.01"
          step="any"
          required
          inputMode="decimal"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          className={`${field} w-36`}
        />
      </div>
      <div>
        <label htmlFor="target-channel" className="block text-xs font-medium text-slate-600 dark:text-slate-400">
          For
        </label>
        <select id="target-channel" value={channel} onChange={(e) => setChannel(e.target.value)} className={field}>
          <option value="">The whole store</option>
          {channels.map((name) => (
            <option key={name} value={name}>
              Channel {name}
            </option>
          ))}
        </select>
      </div>
      <Button type="submit" variant="secondary" disabled={pending}>
        Set the target
      </Button>
    </form>
  );
}

/** This month's revenue against its targets, in the store's zone and currency, with a form to set them. */
export function PacingCard({
  storeUrl,
  organizationId,
  zone,
  currency,
}: {
  storeUrl: string;
  organizationId?: string;
  zone: string;
  currency: string;
}) {
  const now = new Date();
  const today = todayIn(zone, now);
  const month = today.slice(0, 7);
  const history = {
    startDate: addDays(today, -HISTORY_DAYS) < `${month}-01` ? addDays(today, -HISTORY_DAYS) : `${month}-01`,
    endDate: today,
  };
  const targets = useTargets(storeUrl, month, organizationId);
  const metrics = useProductMetrics(storeUrl, history, { organizationId });
  const setTarget = useSetTarget(storeUrl, organizationId);
  const dayFraction = dayFractionAt(epochMsToZonedLocal(now.getTime(), zone));
  return (
    <Card title="Revenue target" boundary={{ name: "The revenue target", requestId: requestIdOf(targets.data), resetKey: targets.data }}>
      {targets.isPending || metrics.isPending ? (
        <Skeleton lines={2} label="Reading this month's target" />
      ) : targets.isError ? (
        <ErrorPanel error={targets.error} onRetry={() => targets.refetch()} />
      ) : metrics.isError ? (
        <ErrorPanel error={metrics.error} onRetry={() => metrics.refetch()} />
      ) : (
        <div className="space-y-4">
          {targets.data.targets.length === 0 ? (
            <p className="text-sm text-slate-600 dark:text-slate-400">
              No revenue target for {formatMonth(`${month}-15T12:00:00Z`, "UTC")} yet. Anyone in the organization can set one.
            </p>
          ) : (
            targets.data.targets.map((target) => (
              <PacingLines
                key={target.channel ?? ""}
                target={target}
                currency={currency}
                zone={zone}
                result={pacing({
                  target: target.amount,
                  month,
                  today,
                  dayFraction,
                  daily: dailyRevenue(metrics.data.series, target.channel),
                })}
              />
            ))
          )}
          <TargetForm
            month={month}
            channels={metrics.data.channels.map((channel) => channel.channel)}
            pending={setTarget.isPending}
            onSave={(amount, channel) => setTarget.mutate({ month, amount, channel })}
          />
          {setTarget.isError && <ErrorPanel error={setTarget.error} />}
        </div>
      )}
    </Card>
  );
}
