import "server-only";
import { buildInfo } from "@/server/runtime/build-info";
import { csvLine } from "@/server/metrics/csv";
import { csvResponse } from "@/server/metrics/export";
import { storeManifestPart } from "@/server/metrics/manifest";
import { totalsByCurrency } from "@/shared/portfolio";
import { relativeChange } from "@/shared/metrics/presentation";
import type { PortfolioFigures, PortfolioRow, PortfolioStore } from "@/shared/schemas/portfolio";

type Cell = string | number | null;

/** A change in percent to a tenth, as the table rounds it; empty without a comparison. */
function change(row: PortfolioStore, figure: keyof PortfolioFigures): Cell {
  const ratio = relativeChange(row.totals[figure], row.previous?.[figure]);
  return ratio === null ? null : Number((ratio * 100).toFixed(1));
}

/** The All stores table as CSV: money in per-currency column pairs, each store's amounts in its own currency, never converted. */
function portfolioCsv(rows: readonly PortfolioRow[]): string {
  const currencies = Object.keys(totalsByCurrency(rows));
  const header = [
    ...["Store", "Store URL", "Currency", "Time zone", "Start date", "End date"],
    ...currencies.flatMap((code) => [`Revenue (${code})`, `Average order value (${code})`]),
    ...["Revenue change (%)", "Orders", "Orders change (%)", "Units", "Units change (%)", "Average order value change (%)"],
    ...["Top channel", "Open alerts", "Figures as of", "Error"],
  ];
  const line = (row: PortfolioRow): Cell[] => {
    if ("error" in row) return [row.storeUrl, row.storeUrl, ...Array<Cell>(header.length - 3).fill(null), row.error.message];
    const money = currencies.flatMap((code) => (code === row.currency ? [row.totals.revenue, row.totals.aov] : [null, null]));
    const { orders, units } = row.totals;
    return [
      ...[row.name, row.storeUrl, row.currency, row.timeZone, row.startDate, row.endDate, ...money, change(row, "revenue")],
      ...[orders, change(row, "orders"), units, change(row, "units"), change(row, "aov"), row.topChannel, row.openAlerts, row.asOf, null],
    ];
  };
  return [csvLine(header), ...rows.map((row) => csvLine(line(row)))].join("");
}

/** The CSV with its manifest: each store read, with its own currency, zone and range. */
export function portfolioCsvResponse(
  rows: readonly PortfolioRow[],
  request: { endpoint: string; parameters: Record<string, string>; compare: "previous" | "year" | "off" },
  requestId: string,
): Response {
  const read = rows.filter((row): row is PortfolioStore => !("error" in row));
  const manifest = {
    manifest_version: 1,
    kind: "portfolio",
    endpoint: request.endpoint,
    parameters: request.parameters,
    compare: request.compare,
    stores: read.map((row) => storeManifestPart({ storeUrl: row.storeUrl, filters: row, timeZone: row.timeZone, currency: row.currency })),
    dashboard_version: buildInfo().version,
    exported_at: new Date().toISOString(),
  };
  return csvResponse(`all-stores_${new Date().toISOString().slice(0, 10)}.csv`, manifest, portfolioCsv(rows), requestId);
}
