import "server-only";
import { exportProductsCsv, exportRowsCsv } from "@/lib/metrics/server/export";
import type { UpstreamContext } from "@/lib/metrics/server/product-rows";
import { productBreakdown, productMetricsView } from "@/lib/metrics/server/service";
import {
  breakdownQuerySchema,
  exportQuerySchema,
  productMetricsQuerySchema,
  type MetricsFilters,
} from "@/lib/schemas/product-metrics-view";
import { DashboardError, jsonResponse } from "@/lib/server/http";
import { toDashboardError } from "./errors";
import { route, type HandlerContext } from "./pipeline";

const STORE_ROUTE = /^\/api\/stores\/([^/]+)\/product-metrics(?:\/(breakdown|export))?\/?$/;

/** The store of the path, decoded; malformed percent-encoding is a 400, not an exception. */
function storeOf(url: URL): string {
  const raw = STORE_ROUTE.exec(url.pathname)?.[1];
  if (!raw) throw new DashboardError(404, "not_found");
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new DashboardError(400, "bad_request", "The store in the path has malformed percent-encoding.");
  }
}

function filtersOf<Q extends MetricsFilters>(query: Q): MetricsFilters {
  const { startDate, endDate, channel, adId, filterCountry, filterDeviceType, filterOS, filterBrowser, filterProductId, dimension_source } =
    query;
  return { startDate, endDate, channel, adId, filterCountry, filterDeviceType, filterOS, filterBrowser, filterProductId, dimension_source };
}

const upstreamContext = (context: HandlerContext<string, unknown, unknown>, organizationId = context.organizationId): UpstreamContext => ({
  session: context.session.data,
  organizationId,
  requestId: context.requestId,
  signal: context.request.signal,
});

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

/**
 * GET /api/stores/{storeUrl}/product-metrics: the aggregated view as NDJSON, with progress
 * lines while the rows stream in. Until the upstream has answered 200, failures are plain
 * Error-shaped answers with their status; after that they arrive as an error line.
 */
export const productMetrics = route(
  { route: "GET /api/stores/{storeUrl}/product-metrics", match: storeOf, query: productMetricsQuerySchema },
  async (context) => {
    let opened!: () => void;
    const openedOnce = new Promise<void>((resolve) => (opened = resolve));
    const progress: number[] = [];
    let wake: (() => void) | undefined;
    const { view, cached } = productMetricsView(upstreamContext(context), context.match, filtersOf(context.query), context.query.compare, {
      onOpened: () => opened(),
      onProgress: (rows) => {
        progress.push(rows);
        wake?.();
      },
    });
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
        if (progress.length > 0) return controller.enqueue(line({ type: "progress", rows: progress.splice(0).at(-1) }));
        controller.enqueue(line(await settled));
        controller.close();
      },
    });
    return new Response(body, {
      headers: { "content-type": "application/x-ndjson; charset=utf-8", "cache-control": "no-store", "x-request-id": context.requestId },
    });
  },
);

/** GET /api/stores/{storeUrl}/product-metrics/breakdown?productId=…: one product by channel and ad. */
export const breakdown = route(
  { route: "GET /api/stores/{storeUrl}/product-metrics/breakdown", match: storeOf, query: breakdownQuerySchema },
  async (context) =>
    jsonResponse(await productBreakdown(upstreamContext(context), context.match, filtersOf(context.query), context.query.productId), {
      requestId: context.requestId,
    }),
);

/** GET /api/stores/{storeUrl}/product-metrics/export?kind=products|rows: CSV, streamed. */
export const productMetricsExport = route(
  { route: "GET /api/stores/{storeUrl}/product-metrics/export", match: storeOf, query: exportQuerySchema },
  async (context) => {
    const upstream = upstreamContext(context, context.query.organizationId ?? context.organizationId);
    const options = { storeUrl: context.match, filters: filtersOf(context.query) };
    return context.query.kind === "rows" ? exportRowsCsv(upstream, options) : exportProductsCsv(upstream, options);
  },
);
