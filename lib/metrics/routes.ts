import "server-only";
import {
  breakdownQuerySchema,
  exportQuerySchema,
  productMetricsQuerySchema,
  type MetricsFilters,
} from "@/lib/schemas/product-metrics-view";
import { jsonResponse } from "@/lib/server/http";
import { handleWithSession, type RouteContext } from "@/lib/server/route";
import { upstreamErrorResponse } from "@/lib/upstream/errors";
import { UpstreamFailure, UpstreamHttpError } from "@/lib/upstream/client";
import { exportProductsCsv, exportRowsCsv } from "./export";
import { productBreakdown, productMetricsView } from "./service";

type StoreParams = { params: Promise<{ storeUrl: string }> };

function filtersOf<Q extends MetricsFilters>(query: Q): MetricsFilters {
  const { startDate, endDate, channel, adId, filterCountry, filterDeviceType, filterOS, filterBrowser, filterProductId, dimension_source } =
    query;
  return { startDate, endDate, channel, adId, filterCountry, filterDeviceType, filterOS, filterBrowser, filterProductId, dimension_source };
}

const upstreamContext = (context: RouteContext<unknown>) => ({
  session: context.session,
  organizationId: context.organizationId,
  requestId: context.requestId,
  signal: context.request.signal,
});

const encoder = new TextEncoder();
const line = (event: unknown) => encoder.encode(`${JSON.stringify(event)}\n`);

function errorEvent(error: unknown, requestId: string) {
  if (error instanceof UpstreamFailure)
    return { type: "error", status: error.status, code: error.code, error: error.message, requestId: error.upstreamRequestId ?? requestId };
  if (error instanceof UpstreamHttpError)
    return { type: "error", status: error.status, error: error.body.error, requestId: error.upstreamRequestId ?? requestId };
  return { type: "error", status: 500, error: "The dashboard could not finish the aggregation.", requestId };
}

/**
 * GET /api/stores/{storeUrl}/product-metrics: the aggregated view as NDJSON, with progress
 * lines while the rows stream in. Until the upstream has answered 200, failures are plain
 * Error-shaped answers with their status; after that they arrive as an error line.
 */
export async function productMetricsRoute(request: Request, { params }: StoreParams) {
  const { storeUrl } = await params;
  return handleWithSession(request, "GET /api/stores/{storeUrl}/product-metrics", productMetricsQuerySchema, async (context) => {
    let opened!: () => void;
    const openedOnce = new Promise<void>((resolve) => (opened = resolve));
    const progress: number[] = [];
    let wake: (() => void) | undefined;
    const { view, cached } = productMetricsView(upstreamContext(context), storeUrl, filtersOf(context.query), context.query.compare, {
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
  });
}

/** GET /api/stores/{storeUrl}/product-metrics/breakdown?productId=…: one product by channel and ad. */
export async function breakdownRoute(request: Request, { params }: StoreParams) {
  const { storeUrl } = await params;
  return handleWithSession(request, "GET /api/stores/{storeUrl}/product-metrics/breakdown", breakdownQuerySchema, async (context) =>
    jsonResponse(await productBreakdown(upstreamContext(context), storeUrl, filtersOf(context.query), context.query.productId), {
      requestId: context.requestId,
    }),
  );
}

/** GET /api/stores/{storeUrl}/product-metrics/export?kind=products|rows: CSV, streamed. */
export async function exportRoute(request: Request, { params }: StoreParams) {
  const { storeUrl } = await params;
  return handleWithSession(request, "GET /api/stores/{storeUrl}/product-metrics/export", exportQuerySchema, async (context) => {
    const options = { storeUrl, filters: filtersOf(context.query) };
    try {
      return context.query.kind === "rows"
        ? await exportRowsCsv(upstreamContext(context), options)
        : await exportProductsCsv(upstreamContext(context), options);
    } catch (error) {
      return upstreamErrorResponse(error, context.requestId);
    }
  });
}
