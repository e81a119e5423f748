"use client";

import dynamic from "next/dynamic";
import { usePathname } from "next/navigation";
import { useDeferredValue, useEffect, useMemo } from "react";
import type { ProductMetricsView } from "@/shared/schemas/product-metrics-view";
import { formatDate } from "@/shared/format";
import { alignToCurrent, autoGranularity, partialBucket } from "@/shared/metrics/comparison";
import { dateRangeOf, filtersOf, toSearchParams } from "@/shared/metrics/view-state";
import { useDimensions } from "@/client/queries/dimensions";
import { useProductMetrics } from "@/client/queries/product-metrics";
import { AggregationProgress } from "./aggregation-progress";
import { FreshnessNote } from "./freshness-note";
import { ExportButtons } from "./export-buttons";
import { requestIdOf } from "@/client/queries/api-client";
import { useStoreProfile } from "@/client/queries/store";
import { useAnnotations } from "@/client/queries/annotations";
import { useTargets } from "@/client/queries/targets";
import { todayIn } from "@/shared/metrics/date-range";
import { interpretCurrency, interpretTimeZone } from "@/shared/store-locale";
import { Card } from "@/components/ui/card";
import { ErrorPanel } from "@/components/ui/error-panel";
import { FallbackNote } from "@/components/ui/fallback-note";
import { PanelBoundary } from "@/components/ui/panel-boundary";
import { EmptyState, ResetNotice, Skeleton } from "@/components/ui/states";
import { AttributionComparison } from "./attribution-comparison";
import { BiggestChangesPanel } from "./biggest-changes";
import { KpiCards, type KpiComparison } from "./kpi-cards";
import type { ChartComparison } from "./charts";
import { AnnotationsPanel } from "./annotations-panel";
import { PacingCard } from "@/components/metrics/pacing-card";
import { stepRange } from "@/shared/metrics/step-period";
import { Shortcuts } from "./shortcuts";
import { chartMarkers } from "./chart-markers";
import { ProductTable } from "./product-table";
import { SavedViewsMenu } from "./saved-views-menu";
import { comparisonsOf, comparisonWords, useViewState } from "./view-url";
import { AttributionControl, DateControls, FilterChips, FilterControls } from "./view-controls";

// Charts are the heaviest code of the page: loaded only here, and only in the browser.
const loadCharts = () => import("./charts");
const ProductCharts = dynamic(loadCharts, { ssr: false, loading: () => <Skeleton lines={6} label="Loading the charts" /> });

/** Whether two attributions' totals agree (they do for a whole store: every order is credited once under each). */
const sameTotals = (a: ProductMetricsView["totals"], b: ProductMetricsView["totals"]) =>
  a.orders === b.orders && a.units === b.units && Math.abs(a.revenue - b.revenue) < 0.005;

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
  // Two comparisons at once are two reads: the previous period with the page, the year earlier beside it.
  const compare = state.compare === "off" ? undefined : state.compare === "both" ? "previous" : state.compare;
  const granularity = state.granularity ?? autoGranularity(range);
  const primarySource = state.source === "first_touch" ? "first_touch" : "conversion";
  const filters = filtersOf(state, range, primarySource);
  const secondaryFilters = filtersOf(state, range, "first_touch");
  const ready = profile.isSuccess;
  const primary = useProductMetrics(storeUrl, filters, { compare, organizationId, enabled: ready });
  const yearEarlier = useProductMetrics(storeUrl, filters, { compare: "year", organizationId, enabled: ready && state.compare === "both" });
  const secondary = useProductMetrics(storeUrl, secondaryFilters, { compare, organizationId, enabled: ready && state.source === "both" });
  const annotations = useAnnotations(storeUrl, range, organizationId);
  // The targets of the range's months, of what the view shows (the store, or the channel it is filtered to).
  const targets = useTargets(storeUrl, range.startDate.slice(0, 7), organizationId, range.endDate.slice(0, 7));
  const monthTargets = new Map(
    (targets.data?.targets ?? [])
      .filter((candidate) => candidate.channel === (state.channel ?? null))
      .map((target) => [target.month, target.amount]),
  );
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
  const compared = comparisonsOf([
    { mode: compare ?? "previous", view },
    ...(state.compare === "both" ? [{ mode: "year" as const, view: yearEarlier.data }] : []),
  ]);
  const kpiComparisons: KpiComparison[] = compared.map(({ mode, comparison }) => ({ ...comparisonWords[mode], totals: comparison.totals }));
  const chartComparisons: ChartComparison[] = compared.map(({ mode, comparison }) => ({
    key: mode,
    label: comparisonWords[mode].label,
    series: alignToCurrent(comparison.series, range, comparison),
  }));
  const step = (direction: -1 | 1) =>
    update((current) => {
      const next = stepRange(dateRangeOf(current, timeZone), direction, todayIn(timeZone));
      return next && { range: "custom", from: next.startDate, to: next.endDate };
    });
  return (
    <div className="space-y-6">
      <Shortcuts onStep={step} onToggleCompare={() => update((current) => ({ compare: current.compare === "off" ? "previous" : "off" }))} />
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 className="text-xl font-semibold">Product metrics</h2>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {formatDate(`${range.startDate}T12:00:00Z`, "UTC")} – {formatDate(`${range.endDate}T12:00:00Z`, "UTC")} · {zone.label} ·{" "}
            {currency}
          </p>
          <FallbackNote text={zone.fallbackNote} />
          <FallbackNote text={currencyNote} />
          {view && (
            <FreshnessNote view={view} timeZone={timeZone} currency={currency} storeUrl={storeUrl} organizationId={organizationId} />
          )}
        </div>
        <div className="flex flex-wrap gap-2 text-sm">
          <SavedViewsMenu
            storeUrl={storeUrl}
            organizationId={organizationId}
            currentSearch={toSearchParams(state).toString()}
            pathname={pathname}
          />
          <ExportButtons
            storeUrl={storeUrl}
            organizationId={organizationId}
            filters={filters}
            table={{ q: state.q, sort: state.sort, direction: state.direction }}
          />
        </div>
      </header>

      <ResetNotice problems={problems} />

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
        <AggregationProgress storeUrl={storeUrl} filters={filters} compare={compare} organizationId={organizationId} />
      ) : primary.isError ? (
        <ErrorPanel error={primary.error} onRetry={() => primary.refetch()} />
      ) : view && view.totals.rows === 0 ? (
        <EmptyState title="No attributed orders in this range">Try a longer range, or remove some filters.</EmptyState>
      ) : view ? (
        <>
          {primary.isFetching && (
            <AggregationProgress storeUrl={storeUrl} filters={filters} compare={compare} organizationId={organizationId} />
          )}
          <PanelBoundary name="The key figures" requestId={requestIdOf(view)} resetKey={view}>
            {state.source === "both" && secondary.data && sameTotals(view.totals, secondary.data.totals) ? (
              // Each order is credited once under either attribution: the store's totals agree, and the channels below differ.
              <div className="break-words">
                <KpiCards
                  title="The same under both attributions: each order is credited once either way; the channels below differ"
                  totals={view.totals}
                  series={view.series}
                  range={range}
                  comparisons={kpiComparisons}
                  currency={currency}
                />
              </div>
            ) : state.source === "both" ? (
              <div className="grid grid-cols-1 gap-6 2xl:grid-cols-2">
                <KpiCards
                  title="Credit to the conversion"
                  totals={view.totals}
                  series={view.series}
                  range={range}
                  comparisons={kpiComparisons}
                  currency={currency}
                />
                {secondary.data ? (
                  <KpiCards
                    title="Credit to the first touch"
                    totals={secondary.data.totals}
                    series={secondary.data.series}
                    range={range}
                    comparisons={comparisonsOf([{ mode: compare ?? "previous", view: secondary.data }]).map(({ mode, comparison }) => ({
                      ...comparisonWords[mode],
                      totals: comparison.totals,
                    }))}
                    currency={currency}
                  />
                ) : secondary.isError ? (
                  <ErrorPanel error={secondary.error} onRetry={() => secondary.refetch()} />
                ) : (
                  <Skeleton lines={2} label="Loading the first-touch figures" />
                )}
              </div>
            ) : (
              <div className="break-words">
                <KpiCards totals={view.totals} series={view.series} range={range} comparisons={kpiComparisons} currency={currency} />
              </div>
            )}
          </PanelBoundary>
          <PacingCard storeUrl={storeUrl} organizationId={organizationId} zone={timeZone} currency={currency} />
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
              granularity={granularity}
              onGranularityChange={(chosen) => update({ granularity: chosen, page: state.page })}
              comparisons={chartComparisons}
              partialBucket={partialBucket(range, granularity, timeZone)}
              markers={chartMarkers(annotations.data, range, timeZone)}
              targets={monthTargets}
            />
          )}
          <Card boundary={{ name: "The notes and actions", requestId: requestIdOf(annotations.data), resetKey: annotations.data }}>
            {annotations.data ? (
              <AnnotationsPanel
                storeUrl={storeUrl}
                organizationId={organizationId}
                annotations={annotations.data}
                zone={timeZone}
                defaultDate={range.endDate}
              />
            ) : annotations.isError ? (
              <ErrorPanel error={annotations.error} onRetry={() => annotations.refetch()} />
            ) : (
              <Skeleton lines={2} label="Loading the notes and actions" />
            )}
          </Card>
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
