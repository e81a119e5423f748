import { queryOptions, useQuery } from "@tanstack/react-query";
import { useSyncExternalStore } from "react";
import {
  breakdownSchema,
  productMetricsEventSchema,
  type ComparisonMode,
  type MetricsFilters,
  type ProductMetricsView,
} from "@/shared/schemas/product-metrics-view";
import { buildPath } from "@/shared/url";
import { ApiRequestError, apiFetch, dashboardFetch, ndjsonLines, rememberRequestId } from "./api-client";

type Query = Record<string, string | undefined>;

function metricsPath(storeUrl: string, suffix: "" | "/breakdown" | "/export", query: Query): string {
  return buildPath(["api", "stores", storeUrl, "product-metrics", ...(suffix ? [suffix.slice(1)] : [])], query);
}

const productMetricsKeys = {
  all: ["product-metrics"] as const,
  view: (storeUrl: string, filters: MetricsFilters, compare?: ComparisonMode, organizationId?: string) =>
    [...productMetricsKeys.all, storeUrl, organizationId ?? null, filters, compare ?? null] as const,
  breakdown: (storeUrl: string, filters: MetricsFilters, productId: string, organizationId?: string) =>
    [...productMetricsKeys.all, storeUrl, organizationId ?? null, filters, "breakdown", productId] as const,
};

/** What the server has read so far per view (rows; days as a percent from the day rollups) while a long aggregation runs. */
type Progress = { rows: number; percent?: number; day?: string };
const progress = new Map<string, Progress>();
const listeners = new Set<() => void>();
function setProgress(key: string, read: Progress | undefined) {
  if (read === undefined) progress.delete(key);
  else progress.set(key, read);
  listeners.forEach((listener) => listener());
}

export function useAggregationProgress(
  storeUrl: string,
  filters: MetricsFilters,
  compare?: ComparisonMode,
  organizationId?: string,
): Progress | undefined {
  const key = JSON.stringify(productMetricsKeys.view(storeUrl, filters, compare, organizationId));
  return useSyncExternalStore(
    (listener) => (listeners.add(listener), () => listeners.delete(listener)),
    () => progress.get(key),
    () => undefined,
  );
}

/** Reads the route's NDJSON: progress lines, then the view or an error line. */
async function fetchView(
  storeUrl: string,
  filters: MetricsFilters,
  compare: ComparisonMode | undefined,
  organizationId: string | undefined,
  signal: AbortSignal,
): Promise<ProductMetricsView> {
  const key = JSON.stringify(productMetricsKeys.view(storeUrl, filters, compare, organizationId));
  const path = metricsPath(storeUrl, "", { ...filters, compare });
  // An error before streaming starts is an ordinary Error-shaped answer.
  const response = await dashboardFetch(path, { accept: "application/x-ndjson", organizationId, signal });
  const requestId = response.headers.get("x-request-id") ?? undefined;
  try {
    for await (const event of ndjsonLines(response, productMetricsEventSchema, signal)) {
      if (event.type === "progress") setProgress(key, { rows: event.rows, percent: event.percent, day: event.day });
      else if (event.type === "result") return rememberRequestId(event.view, requestId);
      else throw new ApiRequestError(event.status, event.error, event.code, event.requestId ?? requestId);
    }
  } finally {
    setProgress(key, undefined);
  }
  throw new ApiRequestError(502, "The answer ended before the figures were complete.", "upstream_malformed", requestId);
}

const productMetricsQueryOptions = (storeUrl: string, filters: MetricsFilters, compare?: ComparisonMode, organizationId?: string) =>
  queryOptions({
    queryKey: productMetricsKeys.view(storeUrl, filters, compare, organizationId),
    queryFn: ({ signal }) => fetchView(storeUrl, filters, compare, organizationId, signal),
    staleTime: 60_000,
  });

/** The aggregated product metrics of one view (and its comparison period). */
export function useProductMetrics(
  storeUrl: string,
  filters: MetricsFilters,
  options: { compare?: ComparisonMode; organizationId?: string; enabled?: boolean } = {},
) {
  return useQuery({
    ...productMetricsQueryOptions(storeUrl, filters, options.compare, options.organizationId),
    enabled: options.enabled ?? true,
    placeholderData: (previous) => previous,
  });
}

/** One product's rows by channel and ad, read when its table row opens. */
export function useProductBreakdown(storeUrl: string, filters: MetricsFilters, productId: string, organizationId?: string) {
  return useQuery({
    queryKey: productMetricsKeys.breakdown(storeUrl, filters, productId, organizationId),
    queryFn: ({ signal }) =>
      apiFetch(metricsPath(storeUrl, "/breakdown", { ...filters, productId }), breakdownSchema, { signal, organizationId }),
    staleTime: 60_000,
  });
}

/** The export of the view, naming the organization; the product table's carries its search and sort, so the file holds what it shows. */
export function exportPath(
  storeUrl: string,
  filters: MetricsFilters,
  kind: "products" | "rows",
  organizationId?: string,
  table?: { q: string; sort: string; direction: string },
): string {
  const shown = kind === "products" && table ? { q: table.q || undefined, sort: table.sort, direction: table.direction } : {};
  return metricsPath(storeUrl, "/export", { ...filters, kind, ...shown, organizationId });
}
