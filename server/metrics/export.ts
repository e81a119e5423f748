import "server-only";
import { storeProfileSchema } from "@/shared/schemas/store";
import type { MetricsFilters, ProductSummary } from "@/shared/schemas/product-metrics-view";
import { EXPORT_MANIFEST_HEADER } from "@/shared/schemas/export-manifest";
import { productRows, tablePage } from "@/shared/metrics/presentation";
import type { SortColumn } from "@/shared/metrics/view-state";
import { interpretCurrency } from "@/shared/store-locale";
import type { UpstreamClient } from "@/server/upstream/client";
import { buildInfo } from "@/server/runtime/build-info";
import type { MetricRow } from "./aggregate";
import { csvFileName, csvLine, type ExportDescription } from "./csv";
import { manifestBase } from "./manifest";
import { openProductRows } from "./product-rows";
import { productMetricsView } from "./service";

interface ExportOptions {
  storeUrl: string;
  filters: MetricsFilters;
  /** The request as made, for the manifest: "Verify" asks it again. */
  request: { endpoint: string; parameters: Record<string, string> };
}

/** The product table's search and sort: the file holds the table's rows in the table's order. */
interface TableState {
  q: string;
  sort: SortColumn;
  direction: "asc" | "desc";
}

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

/** The store's time zone and currency, for the manifest. */
async function describe(upstream: UpstreamClient, options: ExportOptions, kind: ExportDescription["kind"]): Promise<ExportDescription> {
  const { data: profile } = await upstream.json("store-profile", storeProfileSchema, { params: { storeUrl: options.storeUrl } });
  return { storeUrl: options.storeUrl, filters: options.filters, timeZone: profile.timezone, currency: profile.currency, kind };
}

/** A CSV file with its manifest's fixed part in the header, as every export of the dashboard is sent. */
export function csvResponse(fileName: string, manifest: object, body: ReadableStream<Uint8Array> | string, requestId: string) {
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${fileName}"`,
      "cache-control": "no-store",
      "x-request-id": requestId,
      // Percent-encoded JSON: a header holds ASCII only, and the store's values may not be.
      [EXPORT_MANIFEST_HEADER]: encodeURIComponent(JSON.stringify(manifest)),
      "access-control-expose-headers": EXPORT_MANIFEST_HEADER,
    },
  });
}

/** A figure as the table rounds it: money to the currency's decimals, a share to a tenth of a percent. */
const rounded = (value: number | null, decimals: number) => (value === null ? null : Number(value.toFixed(decimals)));

/**
 * The product table as the page shows it: its search, its sort, its columns under their
 * labels, money rounded to the currency's decimals. The header is the first line.
 */
export function productsCsv(products: readonly ProductSummary[], totalRevenue: number, table: TableState, currency: string | null): string {
  const decimals = interpretCurrency(currency).decimals;
  const code = interpretCurrency(currency).code;
  const money = (label: string) => (code ? `${label} (${code})` : label);
  const { rows } = tablePage(productRows(products, totalRevenue), { ...table, page: 1, pageSize: Number.MAX_SAFE_INTEGER });
  return [
    csvLine([
      "Product",
      "SKU",
      "Product ID",
      "Orders",
      "Units",
      money("Revenue"),
      money("Avg. price"),
      money("Revenue / order"),
      "Share (%)",
    ]),
    ...rows.map((row) =>
      csvLine([
        row.name,
        row.sku,
        row.productId,
        row.orders,
        row.units,
        rounded(row.revenue, decimals),
        rounded(row.averagePrice, decimals),
        rounded(row.revenuePerOrder, decimals),
        rounded(row.share === null ? null : row.share * 100, 1),
      ]),
    ),
  ].join("");
}

/** The product table of the current view; small, so built at once from the (cached) aggregate. */
export async function exportProductsCsv(upstream: UpstreamClient, options: ExportOptions, table: TableState): Promise<Response> {
  const [description, view] = await Promise.all([
    describe(upstream, options, "products"),
    productMetricsView(upstream, options.storeUrl, options.filters, undefined).view,
  ]);
  const manifest = manifestBase(description, options.request, buildInfo().version);
  return csvResponse(
    csvFileName(description),
    manifest,
    productsCsv(view.products, view.totals.revenue, table, description.currency),
    upstream.requestId,
  );
}

/**
 * Every raw row of the current view at full precision, streamed: each pull turns one upstream
 * batch into CSV, so a million rows pass through without being held.
 */
export async function exportRowsCsv(upstream: UpstreamClient, options: ExportOptions): Promise<Response> {
  const [description, rows] = await Promise.all([
    describe(upstream, options, "rows"),
    openProductRows(upstream, options.storeUrl, options.filters),
  ]);
  const encoder = new TextEncoder();
  const batches = rows.batches[Symbol.asyncIterator]();
  let headerSent = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        return controller.enqueue(encoder.encode(csvLine(ROW_COLUMNS)));
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
  return csvResponse(csvFileName(description), manifestBase(description, options.request, buildInfo().version), body, upstream.requestId);
}
