"use client";

import { useSearchParams } from "next/navigation";
import { useMemo } from "react";
import { usePortfolio, portfolioPath } from "@/client/queries/portfolio";
import { useDownload } from "@/client/export-download";
import { dateRangeOf, defaultViewState } from "@/shared/metrics/view-state";
import {
  firstDirection,
  parsePortfolioState,
  portfolioQueryOf,
  portfolioSearch,
  sortPortfolio,
  totalsByCurrency,
  type PortfolioState,
} from "@/shared/portfolio";
import { portfolioManifestSchema } from "@/shared/schemas/export-manifest";
import type { PortfolioRow } from "@/shared/schemas/portfolio";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ErrorPanel } from "@/components/ui/error-panel";
import { EmptyState, ResetNotice } from "@/components/ui/states";
import { DateControls } from "@/components/products/view-controls";
import { COLUMNS, PortfolioTable } from "./portfolio-table";
import { PortfolioDigests } from "./portfolio-digests";

const localZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The page's state lives in its URL, changed through the History API as Product metrics does. */
function usePortfolioState() {
  const params = useSearchParams();
  const parsed = useMemo(() => parsePortfolioState(new URLSearchParams(params.toString())), [params]);
  const update = (patch: Partial<PortfolioState>) => {
    const current = parsePortfolioState(new URLSearchParams(window.location.search)).state;
    window.history.pushState(null, "", `/stores?${portfolioSearch({ ...current, ...patch })}`);
  };
  return { ...parsed, update };
}

function ExportButton({ query }: { query: Record<string, string> }) {
  const { pending, done, error, run } = useDownload();
  return (
    <div className="flex flex-col items-end gap-1">
      <Button
        variant="secondary"
        disabled={pending !== undefined}
        onClick={() => void run("csv", portfolioPath(query, true), portfolioManifestSchema)}
      >
        {pending ? "Exporting the table…" : "Export table (CSV)"}
      </Button>
      <p role="status" className="text-xs text-slate-600 dark:text-slate-400">
        {done}
      </p>
      {error !== undefined && <ErrorPanel error={error} />}
    </div>
  );
}

/** Every store of the key ring on one page: its figures over the chosen range, in its own currency and zone. */
export function PortfolioView({ stores }: { stores: string[] }) {
  const { state, problems, update } = usePortfolioState();
  const query = portfolioQueryOf(state);
  const portfolio = usePortfolio(query);
  const lines = portfolio.data ?? [];
  const rows = lines.filter((line): line is PortfolioRow => line.type === "store");
  const whole = lines.some((line) => line.type === "result");
  const waiting = whole || portfolio.isError ? [] : stores.filter((url) => !rows.some((row) => row.storeUrl === url));
  // A custom range starts from the chosen preset's dates where the browser is; each store reads its own.
  const range = dateRangeOf({ ...defaultViewState, range: state.range, from: state.from, to: state.to }, localZone());
  const sortBy = (sort: PortfolioState["sort"]) =>
    update({ sort, direction: state.sort === sort ? (state.direction === "asc" ? "desc" : "asc") : firstDirection(sort) });
  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold">All stores</h1>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            Each store in its own currency and time zone: a range is each store&apos;s own days, and amounts are never converted.
          </p>
        </div>
        <ExportButton query={{ ...query, sort: state.sort, direction: state.direction }} />
      </header>
      <ResetNotice problems={problems} />
      <Card>
        <div className="flex flex-wrap items-end justify-between gap-4">
          <DateControls
            key={`${state.range}-${state.from}-${state.to}`}
            state={state}
            range={range}
            bothComparisons={false}
            onChange={(patch) => update(patch as Partial<PortfolioState>)}
          />
          <div className="flex flex-wrap items-end gap-2">
            <div>
              <label htmlFor="portfolio-sort" className="block text-xs font-medium text-slate-600 dark:text-slate-400">
                Sort by
              </label>
              <select
                id="portfolio-sort"
                value={state.sort}
                onChange={(event) => sortBy(event.target.value as PortfolioState["sort"])}
                className="rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-900"
              >
                {COLUMNS.map(([sort, label]) => (
                  <option key={sort} value={sort}>
                    {label}
                  </option>
                ))}
                <option value="attention">Needs attention</option>
              </select>
            </div>
            <Button
              variant="secondary"
              aria-pressed={state.sort === "attention"}
              title="The largest fall in revenue against the comparison first"
              onClick={() => update({ sort: "attention", direction: "asc" })}
            >
              Needs attention
            </Button>
          </div>
        </div>
      </Card>
      <Card>
        {portfolio.isError && <ErrorPanel error={portfolio.error} onRetry={() => portfolio.refetch()} />}
        {stores.length === 0 ? (
          <EmptyState title="No stores">Add a store&apos;s key on Organizations and stores.</EmptyState>
        ) : (
          <>
            <p role="status" className="sr-only">
              {waiting.length > 0 ? `${rows.length} of ${stores.length} stores read` : `${rows.length} stores read`}
            </p>
            <PortfolioTable
              rows={sortPortfolio(rows, state.sort, state.direction)}
              waiting={waiting}
              state={state}
              totals={totalsByCurrency(rows)}
              onSort={sortBy}
            />
          </>
        )}
      </Card>
      <PortfolioDigests stores={stores} search={state} />
    </div>
  );
}
