import "server-only";
import { route } from "@/server/http/pipeline";
import type { VerifiedScope } from "@/server/http/scope";
import type { UpstreamClient } from "@/server/upstream/client";
import { portfolioCsvResponse } from "@/server/portfolio/export";
import { sessionKeyRows } from "@/server/auth/session-keys";
import { database } from "@/server/db/database";
import { DashboardError } from "@/server/http/responses";
import { openAlertsOf, readPortfolio, storeFailure, type PortfolioRead } from "@/server/portfolio/read";
import type { PortfolioRow } from "@/shared/schemas/portfolio";
import { resolvePreset } from "@/shared/metrics/date-range";
import { firstDirection, sortPortfolio, totalsByCurrency } from "@/shared/portfolio";
import { portfolioExportQuerySchema, portfolioQuerySchema, type PortfolioQuery } from "@/shared/schemas/portfolio";

/** The reach's stores, each over the dates given or its own preset (the last 7 days by default), each with its own key. */
function readOf(context: {
  scope: VerifiedScope;
  query: PortfolioQuery;
  upstreamOf: (storeUrl: string) => UpstreamClient;
  request: Request;
}): PortfolioRead {
  const { startDate, endDate, range, compare } = context.query;
  return {
    stores: context.scope.stores.map((store) => ({ url: store.url, name: store.name })),
    rangeIn: (timeZone) => (startDate && endDate ? { startDate, endDate } : resolvePreset(range ?? "last7", timeZone)),
    compare,
    upstreamOf: context.upstreamOf,
    signal: context.request.signal,
  };
}

/**
 * The stores of keys the upstream refused and the ring dropped (revoked, expired, invalid), as
 * rows that say so: a page that listed them a moment ago gets their reason, not a silent gap.
 */
async function refusedRows(sessionId: string, reached: ReadonlySet<string>): Promise<PortfolioRow[]> {
  const rows = await sessionKeyRows(await database(), sessionId);
  return rows
    .filter((row) => row.droppedAt && row.droppedReason && row.droppedReason !== "removed")
    .flatMap((row) =>
      row.storeUrls
        .filter((url) => !reached.has(url))
        .map((url) => storeFailure(url, new DashboardError(401, row.droppedReason as "key_revoked" | "key_expired" | "key_invalid"))),
    );
}

const encoder = new TextEncoder();
const line = (value: unknown) => encoder.encode(`${JSON.stringify(value)}\n`);

/** GET /api/portfolio: NDJSON, a line per store as it answers (a failure says why), then totals per currency. */
export const portfolio = route(
  { methods: ["GET"], path: "/api/portfolio", scope: "reach", query: portfolioQuerySchema },
  async (context) => {
    // Read before the answer starts, so that a database failure is an answer of its own.
    const read = { ...readOf(context), openAlerts: await openAlertsOf(context.scope.stores) };
    const refused = await refusedRows(context.session.id, new Set(context.scope.stores.map((store) => store.url)));
    // Started here, within the route's reach: the stream only passes the lines on.
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const row of refused) controller.enqueue(line(row));
        readPortfolio(read, (row) => controller.enqueue(line(row))).then(
          (rows) => {
            controller.enqueue(line({ type: "result", stores: rows.length, totalsByCurrency: totalsByCurrency(rows) }));
            controller.close();
          },
          (error: unknown) => controller.error(error),
        );
      },
    });
    return new Response(body, {
      headers: { "content-type": "application/x-ndjson; charset=utf-8", "cache-control": "no-store", "x-request-id": context.requestId },
    });
  },
);

/** GET /api/portfolio/export: the table as CSV in its sort order, saved with its manifest. */
export const portfolioExport = route(
  { methods: ["GET"], path: "/api/portfolio/export", scope: "reach", query: portfolioExportQuerySchema },
  async (context) => {
    const { sort = "attention", direction = firstDirection(sort), compare } = context.query;
    const rows = sortPortfolio(await readPortfolio(readOf(context)), sort, direction);
    const request = { endpoint: context.url.pathname, parameters: Object.fromEntries(context.url.searchParams), compare };
    return portfolioCsvResponse(rows, request, context.requestId);
  },
);
