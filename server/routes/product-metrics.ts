import "server-only";
import { exportProductsCsv, exportRowsCsv } from "@/server/metrics/export";
import { productBreakdown, productMetricsView } from "@/server/metrics/service";
import {
  breakdownQuerySchema,
  exportQuerySchema,
  productMetricsQuerySchema,
  type MetricsFilters,
} from "@/shared/schemas/product-metrics-view";
import { DashboardError, jsonResponse } from "@/server/http/responses";
import { toDashboardError } from "@/server/http/failures";
import { route } from "@/server/http/pipeline";
import type { ReadProgress } from "@/server/rollups/reader";

function filtersOf<Q extends MetricsFilters>(query: Q): MetricsFilters {
  const { startDate, endDate, channel, adId, filterCountry, filterDeviceType, filterOS, filterBrowser, filterProductId, dimension_source } =
    query;
  return { startDate, endDate, channel, adId, filterCountry, filterDeviceType, filterOS, filterBrowser, filterProductId, dimension_source };
}

const encoder = new TextEncoder();
const line = (event: unknown) => encoder.encode(`${JSON.stringify(event)}\n`);

function errorEvent(error: unknown, requestId: string) {
  const failure = toDashboardError(error) ?? new DashboardError(500, "internal_error", "The dashboard could not finish the aggregation.");
  return {
    type: "error",
    status: failure.status,
    code: failure.code,
    error: failure.message,
    requestId: failure.extra.upstreamRequestId ?? requestId,
  };
}

/** GET …/product-metrics: NDJSON with progress lines; before the upstream's 200, failures are Error answers, after it an error line. */
const BASE = "/api/stores/[storeUrl]/product-metrics";

export const productMetrics = route({ methods: ["GET"], path: BASE, scope: "store", query: productMetricsQuerySchema }, async (context) => {
  let opened!: () => void;
  const openedOnce = new Promise<void>((resolve) => (opened = resolve));
  const progress: { rows: number; percent?: number; day?: string }[] = [];
  let wake: (() => void) | undefined;
  const hooks = {
    onOpened: () => opened(),
    onProgress: (rows: number) => {
      progress.push({ rows });
      wake?.();
    },
    onDays: ({ daysRead, daysToRead, rowsRead, day }: ReadProgress) => {
      progress.push({ rows: rowsRead, percent: Math.floor((daysRead / Math.max(1, daysToRead)) * 100), day });
      wake?.();
    },
  };
  const storeUrl = context.scope.store!.url;
  const { view, cached } = productMetricsView(
    context.upstream,
    storeUrl,
    filtersOf(context.query),
    context.query.compare,
    hooks,
    context.request.signal,
  );
  if (cached) await view;
  else await Promise.race([openedOnce, view]);

  let done = false;
  const settled = view.then(
    (result) => ({ type: "result", view: result }),
    (error: unknown) => errorEvent(error, context.requestId),
  );
  settled.finally(() => {
    done = true;
    wake?.();
  });
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      while (progress.length === 0 && !done) await new Promise<void>((resolve) => (wake = resolve));
      if (progress.length > 0) return controller.enqueue(line({ type: "progress", ...progress.splice(0).at(-1) }));
      controller.enqueue(line(await settled));
      controller.close();
    },
  });
  return new Response(body, {
    headers: { "content-type": "application/x-ndjson; charset=utf-8", "cache-control": "no-store", "x-request-id": context.requestId },
  });
});

/** GET /api/stores/{storeUrl}/product-metrics/breakdown?productId=…: one product by channel and ad. */
export const breakdown = route(
  { methods: ["GET"], path: `${BASE}/breakdown`, scope: "store", query: breakdownQuerySchema },
  async ({ upstream, scope, query, requestId }) =>
    jsonResponse(await productBreakdown(upstream, scope.store!.url, filtersOf(query), query.productId), { requestId }),
);

/** GET /api/stores/{storeUrl}/product-metrics/export?kind=products|rows: CSV, streamed. */
export const productMetricsExport = route(
  { methods: ["GET"], path: `${BASE}/export`, scope: "store", query: exportQuerySchema },
  async ({ upstream, scope, query, url }) => {
    const request = { endpoint: url.pathname, parameters: Object.fromEntries(url.searchParams) };
    const options = { storeUrl: scope.store!.url, filters: filtersOf(query), request };
    if (query.kind === "rows") return exportRowsCsv(upstream, options);
    return exportProductsCsv(upstream, options, { q: query.q ?? "", sort: query.sort ?? "revenue", direction: query.direction ?? "desc" });
  },
);
