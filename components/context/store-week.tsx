"use client";

import { useStoreProfile } from "@/client/queries/store";
import { formatCurrency } from "@/shared/format";
import { compactChange, dailyTotals } from "@/shared/metrics/comparison";
import { interpretTimeZone } from "@/shared/store-locale";
import { ChangeBadge } from "@/components/metrics/change-badge";
import { Sparkline } from "@/components/metrics/sparkline";
import { useLastSevenDays } from "@/components/store/store-pulse";

/** A store's last 7 days in one line of the store list: revenue, a sparkline and the change. */
export function StoreWeek({ storeUrl, organizationId }: { storeUrl: string; organizationId?: string }) {
  const profile = useStoreProfile(storeUrl, organizationId);
  const zone = profile.data ? interpretTimeZone(profile.data.timezone).zone : undefined;
  const { range, query } = useLastSevenDays(storeUrl, zone, organizationId);
  if (profile.isError || query.isError) return <span className="text-sm text-slate-500 dark:text-slate-400">Figures unavailable</span>;
  if (!query.data || !profile.data) return <span className="text-sm text-slate-500 dark:text-slate-400">Reading…</span>;
  const view = query.data;
  return (
    <span className="flex flex-wrap items-center gap-x-3 gap-y-1" data-testid="store-week">
      <span className="font-semibold whitespace-nowrap tabular-nums">{formatCurrency(view.totals.revenue, profile.data.currency)}</span>
      <Sparkline values={dailyTotals(view.series, range, "revenue")} label="Revenue per day, last 7 days" />
      <ChangeBadge change={compactChange(view.totals.revenue, view.comparison?.totals.revenue, "the 7 days before")} />
    </span>
  );
}
