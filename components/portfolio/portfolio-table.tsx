import Link from "next/link";
import type { ReactNode } from "react";
import { formatCurrency, formatDateTime, formatNumber, formatRelative } from "@/shared/format";
import { compactChange } from "@/shared/metrics/comparison";
import { viewSearch, type PortfolioSort, type PortfolioState } from "@/shared/portfolio";
import type { PortfolioFigures, PortfolioRow, PortfolioStore } from "@/shared/schemas/portfolio";
import { ChangeBadge } from "@/components/metrics/change-badge";
import { Sparkline } from "@/components/metrics/sparkline";
import { Breakable } from "@/components/ui/breakable";

/** The table's columns, each sortable; the store column is a row header. */
export const COLUMNS: [PortfolioSort, string][] = [
  ["name", "Store"],
  ["currency", "Currency and time zone"],
  ["revenue", "Revenue"],
  ["orders", "Orders"],
  ["units", "Units"],
  ["aov", "Average order value"],
  ["topChannel", "Top channel"],
  ["openAlerts", "Open alerts"],
  ["asOf", "Figures as of"],
];
const AGAINST = { previous: "the previous period", year: "the same weekdays a year earlier", off: "" };
const cell = "py-2 pr-4 align-top";
const link = "font-medium text-indigo-700 hover:underline dark:text-indigo-300";

function Figure({ row, figure, against }: { row: PortfolioStore; figure: keyof PortfolioFigures; against: string }) {
  const value = row.totals[figure];
  const shown = value === null ? "—" : figure === "revenue" || figure === "aov" ? formatCurrency(value, row.currency) : formatNumber(value);
  return (
    <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
      <span className="font-semibold whitespace-nowrap tabular-nums">{shown}</span>
      {row.previous && <ChangeBadge change={compactChange(value, row.previous[figure], against)} />}
    </span>
  );
}

function StoreRow({ row, state }: { row: PortfolioStore; state: PortfolioState }) {
  const store = `/stores/${encodeURIComponent(row.storeUrl)}`;
  const against = AGAINST[state.compare];
  return (
    <tr>
      <th scope="row" className={`${cell} max-w-xs text-left font-normal`}>
        <Link href={`${store}/products?${viewSearch(state)}`} className={link}>
          <bdi>{row.name}</bdi>
        </Link>
        <span className="block text-xs text-slate-500 dark:text-slate-400">
          <Breakable text={row.storeUrl} />
        </span>
      </th>
      <td data-label="Currency and time zone" className={cell}>
        {row.currency}
        <span className="block text-xs text-slate-600 dark:text-slate-400">
          <Breakable text={row.timeZone} />
        </span>
      </td>
      {(["revenue", "orders", "units", "aov"] as const).map((figure, index) => (
        <td key={figure} data-label={COLUMNS[index + 2]![1]} className={cell}>
          <Figure row={row} figure={figure} against={against} />
          {figure === "revenue" && (
            <Sparkline values={row.daily} label={`Revenue per day of ${row.name}, ${row.startDate} to ${row.endDate}`} />
          )}
        </td>
      ))}
      <td data-label="Top channel" className={cell}>
        {row.topChannel ?? "None"}
      </td>
      <td data-label="Open alerts" className={cell}>
        {row.openAlerts > 0 ? (
          <Link href={`${store}/alerts`} className={link}>
            {row.openAlerts} open
          </Link>
        ) : (
          "None"
        )}
      </td>
      <td data-label="Figures as of" className={`${cell} whitespace-nowrap`}>
        <time dateTime={row.asOf} title={formatDateTime(row.asOf, row.timeZone)}>
          {formatRelative(row.asOf)}
        </time>
      </td>
    </tr>
  );
}

/** A store without figures: why (its error, with what to do), or that it is still being read. */
function PendingRow({ storeUrl, children }: { storeUrl: string; children: ReactNode }) {
  return (
    <tr>
      <th scope="row" className={`${cell} text-left font-normal`}>
        <Breakable text={storeUrl} />
      </th>
      <td colSpan={COLUMNS.length - 1} data-label="Figures" className={cell}>
        {children}
      </td>
    </tr>
  );
}

/** Every store of the ring, one row each (one card each on a phone), sortable by any column. */
export function PortfolioTable(props: {
  rows: PortfolioRow[];
  waiting: string[];
  state: PortfolioState;
  totals: Record<string, { revenue: number; stores: number }>;
  onSort: (sort: PortfolioSort) => void;
}) {
  const { rows, waiting, state, totals } = props;
  return (
    <div className="relative overflow-x-auto">
      <table className="cards-on-phone w-full text-left text-sm">
        <caption className="sr-only">Every store of your key ring, each in its own currency and time zone</caption>
        <thead className="text-xs tracking-wide text-slate-600 uppercase dark:text-slate-400">
          <tr>
            {COLUMNS.map(([sort, label]) => (
              <th
                key={sort}
                scope="col"
                className="py-2 pr-4"
                aria-sort={state.sort === sort ? (state.direction === "asc" ? "ascending" : "descending") : undefined}
              >
                <button type="button" className="uppercase hover:underline" onClick={() => props.onSort(sort)}>
                  {label}
                  <span aria-hidden="true">{state.sort === sort ? (state.direction === "asc" ? " ▲" : " ▼") : ""}</span>
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {rows.map((row) =>
            "error" in row ? (
              <PendingRow key={row.storeUrl} storeUrl={row.storeUrl}>
                <p role="alert" className="font-medium text-rose-700 dark:text-rose-300" data-testid="store-error">
                  {row.error.message}
                </p>
                {(row.error.status === 401 || row.error.status === 403) && (
                  <Link href="/context" className={`${link} text-xs`}>
                    Your stores and keys
                  </Link>
                )}
              </PendingRow>
            ) : (
              <StoreRow key={row.storeUrl} row={row} state={state} />
            ),
          )}
          {waiting.map((storeUrl) => (
            <PendingRow key={storeUrl} storeUrl={storeUrl}>
              <span className="text-slate-600 dark:text-slate-400">Reading…</span>
            </PendingRow>
          ))}
        </tbody>
        {Object.keys(totals).length > 0 && (
          <tfoot className="border-t border-slate-300 dark:border-slate-700">
            <tr>
              <th scope="row" className={`${cell} text-left`}>
                Total, per currency
              </th>
              <td colSpan={COLUMNS.length - 1} className={`${cell} font-semibold tabular-nums`} data-testid="portfolio-totals">
                {Object.entries(totals)
                  .map(
                    ([code, total]) =>
                      `${code} ${formatCurrency(total.revenue, code)} (${total.stores} store${total.stores === 1 ? "" : "s"})`,
                  )
                  .join(" · ")}
              </td>
            </tr>
          </tfoot>
        )}
      </table>
    </div>
  );
}
