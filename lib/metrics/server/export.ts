import "server-only";
import { storeProfileSchema } from "@/lib/schemas/store";
import type { MetricsFilters, ProductSummary } from "@/lib/schemas/product-metrics-view";
import { callUpstreamJson } from "@/lib/upstream/client";
import { endpointById } from "@/lib/upstream/endpoints";
import type { MetricRow } from "../aggregate";
import { csvFileName, csvLine, csvPreamble, type ExportDescription } from "../csv";
import { openProductRows, type UpstreamContext } from "./product-rows";
import { productMetricsView } from "./service";

interface ExportOptions {
  storeUrl: string;
  filters: MetricsFilters;
}

const PRODUCT_COLUMNS = [
  "product_id",
  "product_name",
  "product_sku",
  "orders",
  "units",
  "revenue",
  "average_price",
  "revenue_per_order",
  "share_of_revenue",
];
const ROW_COLUMNS = [
  "shop",
  "date",
  "time",
  "channel",
  "ad_id",
  "product_id",
  "product_name",
  "product_sku",
  "currency",
  "orders",
  "units",
  "revenue",
] as const;

/** The store's time zone and currency, for the file's description. */
async function describe(context: UpstreamContext, options: ExportOptions, kind: ExportDescription["kind"]): Promise<ExportDescription> {
  const { data: profile } = await callUpstreamJson(
    {
      endpoint: endpointById("store-profile"),
      params: { storeUrl: options.storeUrl },
      apiKey: context.session.apiKey,
      organizationId: context.organizationId ?? context.session.organizationId,
      requestId: context.requestId,
      signal: context.signal,
    },
    storeProfileSchema,
  );
  return { storeUrl: options.storeUrl, filters: options.filters, timeZone: profile.timezone, currency: profile.currency, kind };
}

function csvResponse(description: ExportDescription, body: ReadableStream<Uint8Array> | string, requestId: string): Response {
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${csvFileName(description)}"`,
      "cache-control": "no-store",
      "x-request-id": requestId,
    },
  });
}

export function productsCsv(products: readonly ProductSummary[], totalRevenue: number): string {
  return [
    csvLine(PRODUCT_COLUMNS),
    ...products.map((product) =>
      csvLine([
        product.productId,
        product.name,
        product.sku,
        product.orders,
        product.units,
        product.revenue,
        product.units > 0 ? product.revenue / product.units : null,
        product.orders > 0 ? product.revenue / product.orders : null,
        totalRevenue > 0 ? product.revenue / totalRevenue : null,
      ]),
    ),
  ].join("");
}

/** The product table of the current view; small, so built at once from the (cached) aggregate. */
export async function exportProductsCsv(context: UpstreamContext, options: ExportOptions): Promise<Response> {
  const [description, view] = await Promise.all([
    describe(context, options, "products"),
    productMetricsView(context, options.storeUrl, options.filters, undefined).view,
  ]);
  return csvResponse(description, csvPreamble(description) + productsCsv(view.products, view.totals.revenue), context.requestId);
}

/**
 * Every raw row of the current view, streamed: each pull turns one upstream batch into CSV,
 * so a million rows pass through without being held.
 */
export async function exportRowsCsv(context: UpstreamContext, options: ExportOptions): Promise<Response> {
  const [description, rows] = await Promise.all([
    describe(context, options, "rows"),
    openProductRows(context, options.storeUrl, options.filters),
  ]);
  const encoder = new TextEncoder();
  const batches = rows.batches[Symbol.asyncIterator]();
  let headerSent = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        return controller.enqueue(encoder.encode(csvPreamble(description) + csvLine(ROW_COLUMNS)));
      }
      try {
        const next = await batches.next();
        if (next.done) return controller.close();
        const row = (r: MetricRow & Record<string, unknown>) =>
          csvLine(ROW_COLUMNS.map((column) => r[column] as string | number | null | undefined));
        controller.enqueue(encoder.encode(next.value.map((r) => row(r as MetricRow & Record<string, unknown>)).join("")));
      } catch (error) {
        // The file is incomplete: end it with an error the download shows, rather than a quiet truncation.
        controller.error(error);
      }
    },
    cancel: () => void batches.return?.(undefined),
  });
  return csvResponse(description, body, context.requestId);
}
