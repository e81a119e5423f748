"use client";

import type { TrackingConnection } from "@/shared/schemas/tracking-connection";
import { useProductMetrics } from "@/client/queries/product-metrics";
import { addDays, todayIn } from "@/shared/metrics/date-range";
import { channelStakes, type Attributed } from "@/shared/metrics/stakes";
import { formatCurrency, formatDate, formatNumber } from "@/shared/format";
import { enumLabel } from "@/shared/store-locale";
import { Skeleton } from "@/components/ui/states";

/** Long enough to find a last order beyond the 30 days summed. */
const LOOKBACK_DAYS = 90;

const attributed = (figures: Attributed, currency: string) =>
  `${formatNumber(figures.orders)} order${figures.orders === 1 ? "" : "s"}, ${formatCurrency(figures.revenue, currency)}`;

/**
 * What the store stands to lose by removing a connection, shown before its name is typed: the
 * channel's attributed orders and revenue over the last 7 and 30 days (store zone and currency),
 * its last attributed order, and whether another enabled connection keeps the channel reporting.
 */
export function RemovalStakes({
  storeUrl,
  organizationId,
  connection,
  connections,
  timeZone,
  zoneLabel,
  currency,
}: {
  storeUrl: string;
  organizationId?: string;
  connection: TrackingConnection;
  connections: readonly TrackingConnection[];
  timeZone: string;
  zoneLabel: string;
  currency: string;
}) {
  const today = todayIn(timeZone);
  const { channel } = connection;
  const metrics = useProductMetrics(
    storeUrl,
    { startDate: addDays(today, -(LOOKBACK_DAYS - 1)), endDate: today, channel },
    { organizationId },
  );
  const others = connections.filter((other) => other.id !== connection.id && other.channel === channel && other.enabled);
  const name = enumLabel(channel);
  return (
    <section
      aria-label="What this removal puts at stake"
      className="rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm dark:border-amber-900 dark:bg-amber-950/40"
    >
      <h3 className="mb-1 font-medium">What {name} is credited with at this store</h3>
      {!connection.enabled && (
        <p className="mb-1" data-testid="stakes-disabled">
          This connection is disabled and sends nothing now: the figures below come from {name}&apos;s other connections or from before it
          was disabled, and this removal does not take them away.
        </p>
      )}
      {metrics.isPending ? (
        <Skeleton lines={2} label={`Loading the orders attributed to ${name}`} />
      ) : metrics.isError ? (
        <p>The orders attributed to {name} could not be read just now; removing it may still cost the conversions it reports.</p>
      ) : (
        (() => {
          const stakes = channelStakes(metrics.data.series, channel, today);
          return (
            <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1" data-testid="removal-stakes">
              <dt className="text-slate-700 dark:text-slate-300">Last 7 days</dt>
              <dd className="tabular-nums">{attributed(stakes.last7, currency)}</dd>
              <dt className="text-slate-700 dark:text-slate-300">Last 30 days</dt>
              <dd className="tabular-nums">{attributed(stakes.last30, currency)}</dd>
              <dt className="text-slate-700 dark:text-slate-300">Last attributed order</dt>
              <dd>
                {stakes.lastOrderDate ? formatDate(`${stakes.lastOrderDate}T12:00:00Z`, "UTC") : `none in the last ${LOOKBACK_DAYS} days`}
              </dd>
            </dl>
          );
        })()
      )}
      <p className="mt-2 text-xs text-slate-700 dark:text-slate-300">
        Days in the store&apos;s time zone, {zoneLabel}; amounts in {currency}.
      </p>
      <p className="mt-2 font-medium" data-testid="remaining-connection">
        {others.length > 0
          ? `Another enabled ${name} connection remains: ${others.map((other) => other.name).join(", ")}.`
          : connection.enabled
            ? `No other enabled ${name} connection remains: after this removal, ${name} receives no events from this store.`
            : `No ${name} connection of this store is enabled: ${name} receives no events from it now, with or without this one.`}
      </p>
    </section>
  );
}
