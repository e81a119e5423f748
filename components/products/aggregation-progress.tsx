"use client";

import type { ComparisonMode, MetricsFilters } from "@/shared/schemas/product-metrics-view";
import { formatNumber } from "@/shared/format";
import { useAggregationProgress } from "@/client/queries/product-metrics";
import { Card } from "@/components/ui/card";

/** What the server has read so far: "Reading 2025, 61%" (days read out of the range's), or the rows read before any day is known. */
export function progressWords(progress: { rows: number; percent?: number; day?: string } | undefined): string {
  if (!progress) return "Reading the orders…";
  if (progress.percent !== undefined && progress.day) return `Reading ${progress.day.slice(0, 4)}, ${progress.percent}%`;
  return progress.rows ? `Reading the orders… ${formatNumber(progress.rows)} rows so far` : "Reading the orders…";
}

export function AggregationProgress({
  storeUrl,
  filters,
  compare,
  organizationId,
}: {
  storeUrl: string;
  filters: MetricsFilters;
  compare?: ComparisonMode;
  organizationId?: string;
}) {
  const progress = useAggregationProgress(storeUrl, filters, compare, organizationId);
  const percent = progress?.percent;
  return (
    <Card>
      <div role="status" aria-live="polite" className="space-y-3">
        <p className="text-sm font-medium">{progressWords(progress)}</p>
        <div className="h-1.5 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800" aria-hidden="true">
          {percent === undefined ? (
            <div className="h-1.5 w-1/3 animate-pulse rounded-full bg-indigo-500" />
          ) : (
            <div className="h-1.5 rounded-full bg-indigo-500 transition-[width]" style={{ width: `${percent}%` }} />
          )}
        </div>
      </div>
    </Card>
  );
}
