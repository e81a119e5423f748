"use client";

import { Fragment, useState } from "react";
import type { MetricsFilters, ProductMetricsView } from "@/shared/schemas/product-metrics-view";
import { formatCurrency, formatNumber, formatPercent } from "@/shared/format";
import { productRows, tablePage, type ProductRow } from "@/shared/metrics/presentation";
import { requestIdOf } from "@/client/queries/api-client";
import type { SortColumn, ViewState } from "@/shared/metrics/view-state";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/states";
import { ProductBreakdown } from "./product-breakdown";
import { Breakable } from "@/components/ui/breakable";

const PAGE_SIZE = 25;
/** The product column stays in view while the figures scroll beneath it on narrow screens. */
const STICKY =
  "sticky left-0 z-10 bg-white dark:bg-slate-900 max-sm:max-w-[11rem] max-sm:min-w-[9rem] shadow-[1px_0_0_var(--color-slate-200)] dark:shadow-[1px_0_0_var(--color-slate-800)]";

const columns: { key: SortColumn; label: string; numeric: boolean }[] = [
  { key: "name", label: "Product", numeric: false },
  // Revenue beside the product: on a phone it stays in view next to the pinned name.
  { key: "revenue", label: "Revenue", numeric: true },
  { key: "orders", label: "Orders", numeric: true },
  { key: "units", label: "Units", numeric: true },
  { key: "averagePrice", label: "Avg. price", numeric: true },
  { key: "revenuePerOrder", label: "Revenue / order", numeric: true },
  { key: "share", label: "Share", numeric: true },
];

type TableState = Pick<ViewState, "q" | "sort" | "direction" | "page">;

export function ProductTable({
  storeUrl,
  organizationId,
  view,
  filters,
  currency,
  table,
  onTableChange,
}: {
  storeUrl: string;
  organizationId?: string;
  view: ProductMetricsView;
  filters: MetricsFilters;
  currency: string;
  table: TableState;
  onTableChange: (patch: Partial<TableState>) => void;
}) {
  const [expanded, setExpanded] = useState<string | null>(null);
  const { rows, matching, page, pageCount } = tablePage(productRows(view.products, view.totals.revenue), { ...table, pageSize: PAGE_SIZE });
  const money = (value: number | null) => (value === null ? "—" : formatCurrency(value, currency));
  const cell = (row: ProductRow, key: SortColumn) => {
    switch (key) {
      case "orders":
      case "units":
        return formatNumber(row[key]);
      case "revenue":
      case "averagePrice":
      case "revenuePerOrder":
        return money(row[key]);
      case "share":
        return row.share === null ? "—" : formatPercent(row.share);
      default:
        return null;
    }
  };

  return (
    <Card
      boundary={{ name: "The product table", requestId: requestIdOf(view), resetKey: view }}
      title="Products"
      actions={
        <div>
          <label htmlFor="product-search" className="block text-xs font-medium text-slate-600 dark:text-slate-400">
            Search products by name, SKU or ID
          </label>
          <input
            id="product-search"
            type="search"
            placeholder="Any product"
            defaultValue={table.q}
            onChange={(event) => onTableChange({ q: event.target.value, page: 1 })}
            className="w-64 max-w-full rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-950"
          />
        </div>
      }
    >
      {matching === 0 ? (
        <EmptyState title="No product matches this search" />
      ) : (
        <>
          {/* relative: the hidden caption is positioned inside the scroll box, not beside it. */}
          <div className="relative overflow-x-auto">
            <table className="w-full min-w-[48rem] text-left text-sm">
              <caption className="sr-only">
                Products, sorted by {table.sort} {table.direction === "asc" ? "ascending" : "descending"}
              </caption>
              <thead className="text-xs uppercase tracking-wide text-slate-500 dark:text-slate-400">
                <tr>
                  {columns.map((column) => {
                    const active = table.sort === column.key;
                    return (
                      <th
                        key={column.key}
                        scope="col"
                        aria-sort={active ? (table.direction === "asc" ? "ascending" : "descending") : "none"}
                        className={`py-2 pr-3 ${column.numeric ? "text-right whitespace-nowrap" : STICKY}`}
                      >
                        <button
                          type="button"
                          className="inline-flex items-center gap-1 uppercase hover:text-slate-900 dark:hover:text-white"
                          onClick={() =>
                            onTableChange({ sort: column.key, direction: active && table.direction === "desc" ? "asc" : "desc", page: 1 })
                          }
                        >
                          {column.label}
                          <span aria-hidden="true">{active ? (table.direction === "asc" ? "↑" : "↓") : ""}</span>
                        </button>
                      </th>
                    );
                  })}
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => {
                  const open = expanded === row.productId;
                  return (
                    <Fragment key={row.productId}>
                      <tr className="border-t border-slate-100 dark:border-slate-800" data-testid="product-row">
                        <td className={`max-w-md py-2 pr-3 ${STICKY}`}>
                          <button
                            type="button"
                            aria-expanded={open}
                            onClick={() => setExpanded(open ? null : row.productId)}
                            className="flex items-start gap-2 text-left"
                          >
                            <span aria-hidden="true" className="mt-0.5 text-slate-400">
                              {open ? "▾" : "▸"}
                            </span>
                            <span>
                              <span className="block font-medium">
                                <bdi>{row.name ?? "Unnamed product"}</bdi>
                              </span>
                              <span className="block text-xs text-slate-500 dark:text-slate-400">
                                SKU <bdi>{row.sku ?? "—"}</bdi> · ID <Breakable className="font-mono" text={row.productId} />
                              </span>
                            </span>
                          </button>
                        </td>
                        {columns.slice(1).map((column) => (
                          <td key={column.key} className="py-2 pr-3 text-right whitespace-nowrap tabular-nums" data-testid="number-cell">
                            {cell(row, column.key)}
                          </td>
                        ))}
                      </tr>
                      {open && (
                        <tr>
                          <td colSpan={columns.length} className="bg-slate-50 px-6 py-3 dark:bg-slate-950/60">
                            <ProductBreakdown
                              storeUrl={storeUrl}
                              organizationId={organizationId}
                              filters={filters}
                              productId={row.productId}
                              currency={currency}
                            />
                          </td>
                        </tr>
                      )}
                    </Fragment>
                  );
                })}
              </tbody>
            </table>
          </div>
          <nav aria-label="Product table pages" className="mt-3 flex items-center justify-between text-sm">
            <span className="text-slate-600 dark:text-slate-400">
              {formatNumber(matching)} products · page {page} of {pageCount}
            </span>
            <span className="flex gap-2">
              <Button variant="secondary" disabled={page <= 1} onClick={() => onTableChange({ page: page - 1 })}>
                Previous
              </Button>
              <Button variant="secondary" disabled={page >= pageCount} onClick={() => onTableChange({ page: page + 1 })}>
                Next
              </Button>
            </span>
          </nav>
        </>
      )}
    </Card>
  );
}
