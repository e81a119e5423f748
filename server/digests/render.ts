import "server-only";
import { formatCurrency, formatDate, formatDateTime, formatNumber, formatPercent } from "@/shared/format";
import { enumLabel } from "@/shared/store-locale";
import type { MetricsTotals, RevenueChange } from "@/shared/schemas/product-metrics-view";
import { createElement } from "react";
import { renderHtml } from "@/server/email/document";
import { DigestEmail } from "./email";
import type { DigestContent } from "./compose";
import { restatedLine } from "./restated";

/** A digest as an e-mail: accessible HTML (a real table, headings, text alternatives) and the same facts in plain text. */
interface RenderedDigest {
  subject: string;
  html: string;
  text: string;
}

function change(current: number, previous: number): string {
  if (previous === 0) return current === 0 ? "no change" : "new";
  const ratio = (current - previous) / Math.abs(previous);
  return `${ratio >= 0 ? "+" : ""}${formatPercent(ratio)}`;
}

/** Each figure's label, value, comparison value and change. */
function kpis(totals: MetricsTotals, previous: MetricsTotals, currency: string | null): string[][] {
  const money = (value: number) => formatCurrency(value, currency);
  const rows: [string, number, number, (value: number) => string][] = [
    ["Revenue", totals.revenue, previous.revenue, money],
    ["Orders", totals.orders, previous.orders, (value) => formatNumber(value)],
    ["Units", totals.units, previous.units, (value) => formatNumber(value)],
    ["Average order value", totals.averageOrderValue ?? 0, previous.averageOrderValue ?? 0, money],
  ];
  return rows.map(([label, now, before, show]) => [label, show(now), show(before), change(now, before)]);
}

function movers(content: DigestContent): string[] {
  const changes = content.metrics.comparison?.changes;
  if (!changes) return [];
  const line = (kind: string, item: RevenueChange) =>
    `${kind} ${item.name ?? enumLabel(item.key)}: ${item.change >= 0 ? "+" : "−"}${formatCurrency(Math.abs(item.change), content.metrics.currency)}` +
    (item.presence === "both"
      ? ` (${formatCurrency(item.previous, content.metrics.currency)} → ${formatCurrency(item.current, content.metrics.currency)})`
      : ` (${item.presence})`);
  return [
    ...changes.channels.risers.slice(0, 3).map((item) => line("Channel", item)),
    ...changes.channels.fallers.slice(0, 3).map((item) => line("Channel", item)),
    ...changes.products.risers.slice(0, 3).map((item) => line("Product", item)),
    ...changes.products.fallers.slice(0, 3).map((item) => line("Product", item)),
  ];
}

const day = (date: string) => formatDate(`${date}T12:00:00Z`, "UTC");

export function renderDigest(content: DigestContent, links: { view: string; unsubscribe: string; dataChanges: string }): RenderedDigest {
  const { metrics, timeZone, summary } = content;
  const comparison = metrics.comparison;
  const figures = comparison ? kpis(metrics.totals, comparison.totals, metrics.currency) : [];
  const sent = formatDateTime(content.sentAt, timeZone);
  const moved = movers(content);
  const pace = content.pacing;
  // Pacing is the whole store's, against its target: a filtered view's digest says so, with its filter.
  const filtered = !summary.filters.startsWith("All orders (no filter)");
  const paceScope = filtered
    ? ` of the whole store (all orders, not only this digest's filter: ${summary.filters})`
    : " of the whole store";
  const paceLine = pace
    ? `Pacing${paceScope}: ${formatCurrency(pace.monthToDate, metrics.currency)} of ${formatCurrency(pace.target, metrics.currency)} this month; projected ${formatCurrency(pace.projected, metrics.currency)} (${pace.status.replace("_", " ")}).`
    : "";
  const notes = content.notes.map(
    (note) =>
      `${day(note.startDate)}${note.endDate !== note.startDate ? ` to ${day(note.endDate)}` : ""}: ${note.text} (${note.authorEmail})`,
  );
  const restated = content.restated.days.map((day) => restatedLine(day, content.restated.lastDigest, metrics.currency));
  const subject = `${content.viewName} · ${content.storeUrl} · ${formatDate(`${metrics.startDate}T12:00:00Z`, "UTC")} – ${formatDate(`${metrics.endDate}T12:00:00Z`, "UTC")}`;

  const text = [
    `${content.viewName} — ${content.storeUrl}`,
    `Shows: ${summary.filters}`,
    `${summary.range}, ${summary.comparison}. As of ${sent}.`,
    "",
    ...figures.map(([label, current, previous, changed]) => `${label}: ${current} (was ${previous}, ${changed})`),
    ...(moved.length ? ["", "Biggest changes:", ...moved.map((item) => `- ${item}`)] : []),
    ...(restated.length ? ["", "Restated days:", ...restated.map((line) => `- ${line}`), `What changed: ${links.dataChanges}`] : []),
    ...(paceLine ? ["", paceLine] : []),
    ...(notes.length ? ["", "Notes:", ...notes.map((note) => `- ${note}`)] : []),
    "",
    `Open this view: ${links.view}`,
    `Unsubscribe: ${links.unsubscribe}`,
  ].join("\n");

  const html = renderHtml(
    createElement(DigestEmail, {
      subject,
      viewName: content.viewName,
      storeUrl: content.storeUrl,
      summary,
      sent,
      table: { caption: "Key figures", headings: ["Figure", "This period", "Comparison", "Change"], rows: figures },
      sections: [
        { heading: "Biggest changes", items: moved },
        { heading: "Notes", items: notes },
      ],
      restated,
      pace: paceLine,
      links,
    }),
  );
  return { subject, html, text };
}
