"use client";

import dynamic from "next/dynamic";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useDeferredValue, useEffect, useMemo, useState } from "react";
import type { ComparisonMode, MetricsFilters, ProductMetricsView } from "@/lib/schemas/product-metrics-view";
import { formatDate, formatNumber } from "@/lib/format";
import { dateRangeOf, filtersOf, parseViewState, toSearchParams, type ViewState } from "@/lib/metrics/view-state";
import { useDimensions } from "@/lib/queries/dimensions";
import { exportPath, useAggregationProgress, useProductMetrics } from "@/lib/queries/product-metrics";
import { requestIdOf } from "@/lib/queries/api-client";
import { useStoreProfile } from "@/lib/queries/store";
import { interpretCurrency, interpretTimeZone } from "@/lib/store-locale";
import { Card } from "@/components/ui/card";
import { ErrorPanel } from "@/components/ui/error-panel";
import { FallbackNote } from "@/components/ui/fallback-note";
import { PanelBoundary } from "@/components/ui/panel-boundary";
import { EmptyState, Skeleton } from "@/components/ui/states";
import { AttributionComparison } from "./attribution-comparison";
import { BiggestChangesPanel } from "./biggest-changes";
import { KpiCards } from "./kpi-cards";
import { ProductTable } from "./product-table";
import { SavedViewsMenu } from "./saved-views-menu";
import { AttributionControl, DateControls, FilterChips, FilterControls } from "./view-controls";

// Charts are the heaviest code of the page: loaded only here, and only in the browser.
const loadCharts = () => import("./charts");
const ProductCharts = dynamic(loadCharts, { ssr: false, loading: () => <Skeleton lines={6} label="Loading the charts" /> });

function Progress({
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
  const rows = useAggregationProgress(storeUrl, filters, compare, organizationId);
  return (
    <Card>
      <div role="status" aria-live="polite" className="space-y-3">
        <p className="text-sm font-medium">{rows ? `Reading the orders… ${formatNumber(rows)} rows so far` : "Reading the orders…"}</p>
        <div className="h-1.5 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800" aria-hidden="true">
          <div className="h-1.5 w-1/3 animate-pulse rounded-full bg-indigo-500" />
        </div>
      </div>
    </Card>
  );
}

function useViewState() {
  const searchParams = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const parsed = useMemo(() => parseViewState(new URLSearchParams(searchParams.toString())), [searchParams]);
  // The URL changes only when the server has answered for it: until then the controls show the
  // change at once. The optimistic state is dropped as soon as the URL (searchParams) moves on.
  const [optimistic, setOptimistic] = useState<{ base: typeof searchParams; state: ViewState }>();
  const state = optimistic?.base === searchParams ? optimistic.state : parsed.state;
  const problems = parsed.problems;
  /** Changes the view; any change but paging or sorting goes back to the first page. Typing replaces history. */
  const update = (patch: Partial<ViewState>, mode: "push" | "replace" = "push") => {
    const next = { ...state, ...patch, page: patch.page ?? 1 };
    setOptimistic({ base: searchParams, state: next });
    const params = toSearchParams(next);
    // The organization chosen on the context page belongs to the store, not to the view: keep it.
    const organizationId = searchParams.get("organizationId");
    if (organizationId) params.set("organizationId", organizationId);
    const query = params.toString();
    router[mode](`${pathname}${query ? `?${query}` : ""}`, { scroll: false });
  };
  return { state, problems, update };
}

export function ProductsView({ storeUrl, organizationId }: { storeUrl: string; organizationId?: string }) {
  const { state, problems, update } = useViewState();
  const pathname = usePathname();
  // Fetch and evaluate the chart code while the server aggregates, not when the figures arrive.
  useEffect(() => void loadCharts(), []);
  const profile = useStoreProfile(storeUrl, organizationId);
  const zone = interpretTimeZone(profile.data?.timezone);
  const timeZone = zone.zone;
  const currency = profile.data?.currency ?? "USD";
  const currencyNote = interpretCurrency(currency).fallbackNote;
  const range = dateRangeOf(state, timeZone);
  const compare = state.compare === "off" ? undefined : state.compare;
  const primarySource = state.source === "first_touch" ? "first_touch" : "conversion";
  const filters = filtersOf(state, range, primarySource);
  const secondaryFilters = filtersOf(state, range, "first_touch");
  const ready = profile.isSuccess;
  const primary = useProductMetrics(storeUrl, filters, { compare, organizationId, enabled: ready });
  const secondary = useProductMetrics(storeUrl, secondaryFilters, { compare, organizationId, enabled: ready && state.source === "both" });
  const dimensions = useDimensions(
    storeUrl,
    {
      startDate: range.startDate,
      endDate: range.endDate,
      channel: state.channel,
      adId: state.adId,
      dimension_source: filters.dimension_source,
    },
    organizationId,
  );
  // Charts and the table render at low priority, in slices, after the figures: the main
  // thread stays free for input while hundreds of bars are laid out.
  const deferredView = useDeferredValue(primary.data);
  const productNames = useMemo(
    () => new Map((primary.data?.products ?? []).map((product) => [product.productId, product.name ?? product.productId])),
    [primary.data],
  );

  if (profile.isPending) return <Skeleton lines={4} label="Loading the store profile" />;
  if (profile.isError) return <ErrorPanel error={profile.error} onRetry={() => profile.refetch()} />;

  const view: ProductMetricsView | undefined = primary.data;
  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 className="text-xl font-semibold">Product metrics</h2>
          <p className="text-sm text-slate-600 wrap-anywhere dark:text-slate-400">
            {formatDate(`${range.startDate}T12:00:00Z`, "UTC")} – {formatDate(`${range.endDate}T12:00:00Z`, "UTC")} · {zone.label} ·{" "}
            {currency}
          </p>
          <FallbackNote text={zone.fallbackNote} />
          <FallbackNote text={currencyNote} />
        </div>
        <div className="flex flex-wrap gap-2 text-sm">
          <SavedViewsMenu
            storeUrl={storeUrl}
            organizationId={organizationId}
            currentSearch={toSearchParams(state).toString()}
            pathname={pathname}
          />
          <a
            className="rounded-lg border border-slate-300 px-3 py-1.5 font-medium hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-800"
            href={exportPath(storeUrl, filters, "products", organizationId)}
            download
          >
            Export table (CSV)
          </a>
          <a
            className="rounded-lg border border-slate-300 px-3 py-1.5 font-medium hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-800"
            href={exportPath(storeUrl, filters, "rows", organizationId)}
            download
          >
            Export raw rows (CSV)
          </a>
        </div>
      </header>

      {problems.length > 0 && (
        <p
          role="status"
          className="rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-900 dark:bg-amber-950/40 dark:text-amber-100"
        >
          Some settings in this link could not be used and were reset: {problems.join("; ")}.
        </p>
      )}

      <Card boundary={{ name: "The view settings", requestId: requestIdOf(dimensions.data), resetKey: dimensions.data }}>
        <div className="space-y-4">
          <div className="flex flex-wrap items-end justify-between gap-4">
            <DateControls key={`${range.startDate}-${range.endDate}-${state.range}`} state={state} range={range} onChange={update} />
            <AttributionControl state={state} onChange={update} />
          </div>
          <FilterControls
            key={state.adId ?? ""}
            state={state}
            dimensions={dimensions.data}
            dimensionsLoading={dimensions.isPending}
            channelsInView={(view?.channels ?? []).map((channel) => channel.channel)}
            productNames={productNames}
            onChange={update}
          />
          <FilterChips state={state} productNames={productNames} onChange={update} />
        </div>
      </Card>

      {primary.isPending ? (
        <Progress storeUrl={storeUrl} filters={filters} compare={compare} organizationId={organizationId} />
      ) : primary.isError ? (
        <ErrorPanel error={primary.error} onRetry={() => primary.refetch()} />
      ) : view && view.totals.rows === 0 ? (
        <EmptyState title="No attributed orders in this range">Try a longer range, or remove some filters.</EmptyState>
      ) : view ? (
        <>
          {primary.isFetching && <Progress storeUrl={storeUrl} filters={filters} compare={compare} organizationId={organizationId} />}
          <PanelBoundary name="The key figures" requestId={requestIdOf(view)} resetKey={view}>
            {state.source === "both" ? (
              <div className="grid grid-cols-1 gap-6 wrap-anywhere 2xl:grid-cols-2">
                <KpiCards title="Credit to the conversion" totals={view.totals} comparison={view.comparison?.totals} currency={currency} />
                {secondary.data ? (
                  <KpiCards
                    title="Credit to the first touch"
                    totals={secondary.data.totals}
                    comparison={secondary.data.comparison?.totals}
                    currency={currency}
                  />
                ) : secondary.isError ? (
                  <ErrorPanel error={secondary.error} onRetry={() => secondary.refetch()} />
                ) : (
                  <Skeleton lines={2} label="Loading the first-touch figures" />
                )}
              </div>
            ) : (
              <div className="wrap-anywhere">
                <KpiCards totals={view.totals} comparison={view.comparison?.totals} currency={currency} />
              </div>
            )}
          </PanelBoundary>
          {state.source === "both" && secondary.data && (
            <AttributionComparison conversion={view.channels} firstTouch={secondary.data.channels} currency={currency} />
          )}
          {view.comparison && (
            <BiggestChangesPanel
              changes={view.comparison.changes}
              comparison={view.comparison}
              currency={currency}
              onProduct={(productId) => update({ products: [productId] })}
              onChannel={(channel) => update({ channel })}
            />
          )}
          {deferredView && (
            <ProductCharts
              view={deferredView}
              currency={currency}
              timeZone={zone.label}
              granularity={state.granularity}
              onGranularityChange={(granularity) => update({ granularity, page: state.page })}
            />
          )}
          {deferredView && (
            <ProductTable
              storeUrl={storeUrl}
              organizationId={organizationId}
              view={deferredView}
              filters={filters}
              currency={currency}
              table={state}
              onTableChange={(patch) => update({ ...patch, page: patch.page ?? state.page }, patch.q === undefined ? "push" : "replace")}
            />
          )}
        </>
      ) : null}
    </div>
  );
}
