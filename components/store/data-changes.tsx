"use client";

import { useDataChanges } from "@/client/queries/data-changes";
import { useStoreProfile } from "@/client/queries/store";
import type { DataChange } from "@/shared/schemas/data-change";
import { formatCurrency, formatDate, formatDateTime, formatNumber } from "@/shared/format";
import { interpretTimeZone } from "@/shared/store-locale";
import { Card } from "@/components/ui/card";
import { ErrorPanel } from "@/components/ui/error-panel";
import { EmptyState, Skeleton } from "@/components/ui/states";

const SOURCE_WORDS: Record<DataChange["source"], string> = {
  conversion: "credit to the conversion",
  first_touch: "credit to the first touch",
};

function ChangeCard({ change, timeZone }: { change: DataChange; timeZone: string }) {
  const money = (amount: number, signed = false) => formatCurrency(amount, change.currency, signed);
  return (
    <li>
      <Card>
        <article className="space-y-2 text-sm" aria-label={`${formatDate(`${change.day}T12:00:00Z`, "UTC")} restated`}>
          <h3 className="text-base font-semibold">
            {formatDate(`${change.day}T12:00:00Z`, "UTC")}: revenue {money(change.revenue.change, true)}
          </h3>
          <p className="text-slate-600 dark:text-slate-400">
            Seen {formatDateTime(change.detectedAt, timeZone)} when the day was read again ({SOURCE_WORDS[change.source]}).
          </p>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
            <dt>Revenue</dt>
            <dd>
              {money(change.revenue.before)} → {money(change.revenue.after)}
            </dd>
            <dt>Orders</dt>
            <dd>
              {formatNumber(change.orders.before)} → {formatNumber(change.orders.after)}
            </dd>
            <dt>Units</dt>
            <dd>
              {formatNumber(change.units.before)} → {formatNumber(change.units.after)}
            </dd>
          </dl>
          {change.channels.length > 0 && (
            <p>Channels: {change.channels.map((channel) => `${channel.key} ${money(channel.change, true)}`).join(", ")}</p>
          )}
          {change.products.length > 0 && (
            <p>Products: {change.products.map((product) => `${product.name ?? product.key} ${money(product.change, true)}`).join(", ")}</p>
          )}
        </article>
      </Card>
    </li>
  );
}

/** The store's restated days: closed days whose figures changed when the dashboard read them again. */
export function DataChanges({ storeUrl, organizationId }: { storeUrl: string; organizationId?: string }) {
  const changes = useDataChanges(storeUrl, organizationId);
  const profile = useStoreProfile(storeUrl, organizationId);
  const timeZone = interpretTimeZone(profile.data?.timezone).zone;
  return (
    <section className="space-y-4">
      <header>
        <h2 className="text-xl font-semibold">Data changes</h2>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Past days whose figures changed after the dashboard first read them (refunds, late orders, corrections). The views use the new
          figures.
        </p>
      </header>
      {changes.isPending ? (
        <Skeleton lines={3} label="Loading the data changes" />
      ) : changes.isError ? (
        <ErrorPanel error={changes.error} onRetry={() => changes.refetch()} />
      ) : changes.data.changes.length === 0 ? (
        <EmptyState title="No data changes">
          {changes.data.watching
            ? "No past day of this store has changed since the dashboard read it."
            : "This dashboard does not keep a copy of past days' figures, so it cannot see when one changes afterwards."}
        </EmptyState>
      ) : (
        <ul className="space-y-3">
          {changes.data.changes.map((change) => (
            <ChangeCard key={change.id} change={change} timeZone={timeZone} />
          ))}
        </ul>
      )}
    </section>
  );
}
