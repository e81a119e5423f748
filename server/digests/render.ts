import "server-only";
import { formatCurrency, formatDate, formatDateTime, formatNumber, formatPercent } from "@/shared/format";
import { enumLabel } from "@/shared/store-locale";
import type { MetricsTotals, RevenueChange } from "@/shared/schemas/product-metrics-view";
import { escapeHtml } from "@/server/delivery/mail";
import type { DigestContent } from "./compose";

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

interface Kpi {
  label: string;
  current: string;
  previous: string;
  change: string;
}

function kpis(totals: MetricsTotals, previous: MetricsTotals, currency: string | null): Kpi[] {
  const money = (value: number) => formatCurrency(value, currency);
  const rows: [string, number, number, (value: number) => string][] = [
    ["Revenue", totals.revenue, previous.revenue, money],
    ["Orders", totals.orders, previous.orders, (value) => formatNumber(value)],
    ["Units", totals.units, previous.units, (value) => formatNumber(value)],
    ["Average order value", totals.averageOrderValue ?? 0, previous.averageOrderValue ?? 0, money],
  ];
  return rows.map(([label, now, before, show]) => ({ label, current: show(now), previous: show(before), change: change(now, before) }));
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

export function renderDigest(content: DigestContent, links: { view: string; unsubscribe: string }): RenderedDigest {
  const { metrics, timeZone } = content;
  const comparison = metrics.comparison;
  const rows = comparison ? kpis(metrics.totals, comparison.totals, metrics.currency) : [];
  const range = `${formatDate(`${metrics.startDate}T12:00:00Z`, "UTC")} – ${formatDate(`${metrics.endDate}T12:00:00Z`, "UTC")}`;
  const against = comparison
    ? `${formatDate(`${comparison.startDate}T12:00:00Z`, "UTC")} – ${formatDate(`${comparison.endDate}T12:00:00Z`, "UTC")}`
    : "";
  const sent = `${formatDateTime(content.sentAt, timeZone)} (${timeZone})`;
  const moved = movers(content);
  const pace = content.pacing;
  const paceLine = pace
    ? `Pacing: ${formatCurrency(pace.monthToDate, metrics.currency)} of ${formatCurrency(pace.target, metrics.currency)} this month; projected ${formatCurrency(pace.projected, metrics.currency)} (${pace.status.replace("_", " ")}).`
    : "";
  const subject = `${content.viewName} · ${content.storeUrl} · ${range}`;

  const text = [
    `${content.viewName} — ${content.storeUrl}`,
    `${range}, compared with ${against}. As of ${sent}.`,
    "",
    ...rows.map((row) => `${row.label}: ${row.current} (was ${row.previous}, ${row.change})`),
    ...(moved.length ? ["", "Biggest changes:", ...moved.map((item) => `- ${item}`)] : []),
    ...(paceLine ? ["", paceLine] : []),
    ...(content.notes.length
      ? [
          "",
          "Notes:",
          ...content.notes.map(
            (note) =>
              `- ${note.startDate}${note.endDate !== note.startDate ? ` to ${note.endDate}` : ""}: ${note.text} (${note.authorEmail})`,
          ),
        ]
      : []),
    "",
    `Open this view: ${links.view}`,
    `Unsubscribe: ${links.unsubscribe}`,
  ].join("\n");

  const cell = "padding:6px 10px;border-bottom:1px solid #ddd;text-align:left";
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:system-ui,sans-serif;color:#111;background:#fff;line-height:1.5">
<main>
<h1 style="font-size:20px">${escapeHtml(content.viewName)} <span style="font-weight:normal">— ${escapeHtml(content.storeUrl)}</span></h1>
<p>${escapeHtml(range)}, compared with ${escapeHtml(against)}. As of ${escapeHtml(sent)}.</p>
<table style="border-collapse:collapse"><caption style="text-align:left;font-weight:bold">Key figures</caption>
<thead><tr><th scope="col" style="${cell}">Figure</th><th scope="col" style="${cell}">This period</th><th scope="col" style="${cell}">Comparison</th><th scope="col" style="${cell}">Change</th></tr></thead>
<tbody>${rows.map((row) => `<tr><th scope="row" style="${cell}">${escapeHtml(row.label)}</th><td style="${cell}">${escapeHtml(row.current)}</td><td style="${cell}">${escapeHtml(row.previous)}</td><td style="${cell}">${escapeHtml(row.change)}</td></tr>`).join("")}</tbody></table>
${moved.length ? `<h2 style="font-size:16px">Biggest changes</h2><ul>${moved.map((item) => `<li>${escapeHtml(item)}</li>`).join("")}</ul>` : ""}
${paceLine ? `<h2 style="font-size:16px">Pacing</h2><p>${escapeHtml(paceLine)}</p>` : ""}
${content.notes.length ? `<h2 style="font-size:16px">Notes</h2><ul>${content.notes.map((note) => `<li>${escapeHtml(note.startDate)}${note.endDate !== note.startDate ? ` to ${escapeHtml(note.endDate)}` : ""}: ${escapeHtml(note.text)} (${escapeHtml(note.authorEmail)})</li>`).join("")}</ul>` : ""}
<p><a href="${escapeHtml(links.view)}" style="color:#3730a3">Open this view in the dashboard</a></p>
</main>
<footer><p style="font-size:13px;color:#444">You receive this because a colleague scheduled this digest. <a href="${escapeHtml(links.unsubscribe)}" style="color:#3730a3">Unsubscribe from this digest</a></p></footer>
</body></html>`;
  return { subject, html, text };
}
