import "server-only";
import { createElement } from "react";
import type { Db } from "@/server/db/database";
import { inReach } from "@/server/db/reach";
import type { DigestSchedule, Portfolio } from "@/server/digests/store";
import { renderHtml } from "@/server/email/document";
import { grantedUpstream } from "@/server/grants/granted-upstream";
import { grantInForce } from "@/server/grants/store";
import { portfolioSummary, summaryLine } from "@/shared/digest-summary";
import { formatCurrency, formatDate, formatDateTime, formatNumber, formatPercent } from "@/shared/format";
import { comparisonRange, type DateRange } from "@/shared/metrics/date-range";
import { relativeChange } from "@/shared/metrics/presentation";
import { dateRangeOf, parseViewState } from "@/shared/metrics/view-state";
import { sortPortfolio, totalsByCurrency } from "@/shared/portfolio";
import type { PortfolioFigures, PortfolioRow, PortfolioStore } from "@/shared/schemas/portfolio";
import { DigestEmail } from "@/server/digests/email";
import { readPortfolio } from "./read";

/** Each store's grant in force of `ownerEmail` (null: none), read within the stores' reach. */
export async function grantsInForce(
  db: Db,
  stores: Readonly<Portfolio["stores"]>,
  ownerEmail: string,
  now: Date,
): Promise<Map<string, string | null>> {
  return inReach(
    stores.map((store) => store.url),
    async () => {
      const found = new Map<string, string | null>();
      for (const store of stores)
        found.set(store.url, await grantInForce(db, { organizationId: store.organizationId, storeUrl: store.url, ownerEmail }, now));
      return found;
    },
  );
}

/** What a digest of several stores says: each granted store's row, the stores left out, its range and comparison. */
interface PortfolioContent {
  rows: PortfolioRow[];
  /** Stores without their owner's grant in force, named in the digest. */
  leftOut: string[];
  /** "Last 7 days, each store's own days in its own time zone" and "compared with the period just before". */
  summary: { range: string; comparison: string };
  sentAt: Date;
  search: string;
  compare: "previous" | "year";
}

/** Reads the chosen stores through the owner's grants, each range in its store's zone; a store without a grant is named and left out. */
export async function composePortfolioDigest(db: Db, schedule: DigestSchedule, now: Date, signal?: AbortSignal): Promise<PortfolioContent> {
  const portfolio = schedule.portfolio!;
  const grants = await grantsInForce(db, portfolio.stores, schedule.grantOwnerEmail, now);
  const granted = portfolio.stores.filter((store) => grants.get(store.url));
  const { state } = parseViewState(new URLSearchParams(portfolio.search));
  const compare = state.compare === "year" ? "year" : "previous";
  const rows = await inReach(
    granted.map((store) => store.url),
    () =>
      readPortfolio({
        stores: granted,
        rangeIn: (timeZone) => dateRangeOf(state, timeZone, now),
        compare,
        upstreamOf: async (storeUrl) => (await grantedUpstream(grants.get(storeUrl)!, { signal })).upstream,
        signal,
      }),
  );
  return {
    rows: sortPortfolio(rows, "name", "asc"),
    leftOut: portfolio.stores.filter((store) => !grants.get(store.url)).map((store) => store.url),
    summary: portfolioSummary(portfolio.search),
    sentAt: now,
    search: portfolio.search,
    compare,
  };
}

const day = (date: string) => formatDate(`${date}T12:00:00Z`, "UTC");

function figure(row: PortfolioStore, name: keyof PortfolioFigures): string {
  const value = row.totals[name];
  const shown = value === null ? "—" : name === "revenue" || name === "aov" ? formatCurrency(value, row.currency) : formatNumber(value);
  const ratio = relativeChange(value, row.previous?.[name]);
  return ratio === null ? shown : `${shown} (${formatPercent(ratio, 1, true)})`;
}

const span = (range: DateRange) => `${day(range.startDate)} – ${day(range.endDate)}`;

/** One store in words: its name, its range and comparison, then its four figures with their changes, or why it has none. */
function storeCells(row: PortfolioRow, compare: "previous" | "year"): string[] {
  if ("error" in row) return [row.storeUrl, row.error.message];
  const range = `${span(row)} (${row.timeZone}), against ${span(comparisonRange(row, compare))}`;
  return [`${row.name} (${row.storeUrl})`, range, ...(["revenue", "orders", "units", "aov"] as const).map((name) => figure(row, name))];
}

export function renderPortfolioDigest(content: PortfolioContent, links: { view: string; unsubscribe: string }) {
  const rows = content.rows.map((row) => storeCells(row, content.compare));
  const totals = Object.entries(totalsByCurrency(content.rows)).map(
    ([code, total]) => `${code} ${formatCurrency(total.revenue, code)} (${total.stores} store${total.stores === 1 ? "" : "s"})`,
  );
  const leftOut = content.leftOut.map((store) => `${store}: no grant is in force for it (grant access on its Digests page to include it)`);
  const stores = `${content.rows.length} store${content.rows.length === 1 ? "" : "s"}`;
  const subject = `All stores · ${stores} · ${content.summary.range.split(",")[0]}`;
  const text = [
    "All stores",
    summaryLine(content.summary),
    "",
    ...rows.map((row) => row.join(" · ")),
    "",
    `Totals per currency, never converted: ${totals.join(" · ") || "none"}`,
    ...(leftOut.length ? ["", "Left out:", ...leftOut.map((line) => `- ${line}`)] : []),
    "",
    `Open All stores: ${links.view}`,
    `Unsubscribe: ${links.unsubscribe}`,
  ].join("\n");
  const html = renderHtml(
    createElement(DigestEmail, {
      subject,
      viewName: "All stores",
      storeUrl: stores,
      summary: { filters: "every store's whole revenue, each in its own currency, credited to the conversion", ...content.summary },
      sent: formatDateTime(content.sentAt, "UTC"),
      table: {
        caption: "Key figures by store",
        headings: ["Store", "Range, against", "Revenue", "Orders", "Units", "Average order value"],
        rows,
      },
      sections: [
        { heading: "Totals per currency, never converted", items: totals },
        { heading: "Left out", items: leftOut },
      ],
      links: { ...links, viewText: "Open All stores in the dashboard" },
    }),
  );
  return { subject, html, text };
}
