import Link from "next/link";
import type { ProductMetricsView } from "@/shared/schemas/product-metrics-view";
import { formatCurrency, formatDate, formatDateTime } from "@/shared/format";

/** The path of the store's Data changes page. */
const dataChangesPath = (storeUrl: string, organizationId?: string) =>
  `/stores/${encodeURIComponent(storeUrl)}/data-changes${organizationId ? `?organizationId=${encodeURIComponent(organizationId)}` : ""}`;

/**
 * How fresh the figures are ("as of 10:42", in the store's zone) and the range's restated
 * days, each linking to the store's data changes.
 */
export function FreshnessNote({
  view,
  timeZone,
  currency,
  storeUrl,
  organizationId,
}: {
  view: ProductMetricsView;
  timeZone: string;
  currency: string;
  storeUrl: string;
  organizationId?: string;
}) {
  if (!view.freshness && !view.restated?.length) return null;
  return (
    <div className="space-y-1 text-sm text-slate-600 dark:text-slate-400">
      {view.freshness && <p data-testid="figures-as-of">Figures as of {formatDateTime(view.freshness.asOf, timeZone)}</p>}
      {view.restated?.map((day) => (
        <p key={day.day} role="note">
          <Link href={dataChangesPath(storeUrl, organizationId)} className="font-medium text-indigo-700 underline dark:text-indigo-300">
            {formatDate(`${day.day}T12:00:00Z`, "UTC")} was restated: revenue {formatCurrency(day.revenueChange, currency, true)}
            {day.mostly ? `, mostly ${day.mostly}` : ""}
          </Link>
        </p>
      ))}
    </div>
  );
}
