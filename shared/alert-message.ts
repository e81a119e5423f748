import { formatCurrency, formatDate, formatNumber } from "@/shared/format";
import { enumLabel } from "@/shared/store-locale";
import { DIRECTION_CHARACTERS, LINE_BREAKING } from "@/shared/schemas/common";
import type { AlertMessageInput, AlertMetric, AlertTarget, WhatMoved } from "@/shared/schemas/alert";

/** What a notification says, in the store's currency; the inbox, webhooks and e-mail all use it. */
export function formatMetric(metric: AlertMetric, value: number, currency: string | null): string {
  return metric === "revenue" ? formatCurrency(value, currency) : formatNumber(value);
}

/** A number of the metric's unit as a field's label says it: "in USD" for revenue, else the count it is. */
export function metricUnit(metric: AlertMetric, currency: string | null): string {
  return metric === "revenue" ? (currency ? `in ${currency}` : "in the store's currency") : metric;
}

/** The rule's target in words; a product by its name when it is known. */
export function targetLabel(target: AlertTarget, productName?: string): string {
  return target.kind === "store"
    ? "the whole store"
    : target.kind === "channel"
      ? `channel ${enumLabel(target.channel)}`
      : productName
        ? `product ${productName}`
        : `product ${target.productId}`;
}

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** What the value was compared with, in words: "the median of the same weekday (Monday) over 6 weeks". */
export function baselineWords(input: AlertMessageInput): string | null {
  if (!input.rule) return null;
  if (input.rule.weeks === undefined) return "the rule's threshold";
  const [date, hour] = input.period.split(" ");
  const weekday = WEEKDAYS[new Date(`${date}T12:00:00Z`).getUTCDay()];
  const same = hour ? `the same hour of the same weekday (${weekday} ${hour})` : `the same weekday (${weekday})`;
  return `the median of ${same} over ${input.rule.weeks} weeks`;
}

/** A notification's badge: "Alert" when the move is the one the rule watches for; otherwise which way it went, or resolved. */
export function alertBadge(input: Pick<AlertMessageInput, "kind" | "value" | "baseline" | "rule">): {
  label: string;
  tone: "bad" | "good" | "info";
} {
  if (input.kind === "alert_resolved") return { label: "Resolved", tone: "good" };
  if (!input.rule || input.baseline === null || input.rule.concern === "both") return { label: "Alert", tone: "bad" };
  const went = input.value < input.baseline ? "down" : "up";
  if (went === input.rule.concern) return { label: "Alert", tone: "bad" };
  return { label: went === "up" ? "Rise, not a drop" : "Drop, not a rise", tone: "info" };
}

/** A rule's period, a store-local day or hour, in the dashboard's one date format: "Nov 23, 2026" or "Nov 23, 2026 at 14:00". */
export function periodWords(period: string): string {
  const [date, hour] = period.split(" ");
  if (!date || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return period;
  const day = formatDate(`${date}T12:00:00Z`, "UTC");
  return hour ? `${day} at ${hour}` : day;
}

export function alertTitle(input: AlertMessageInput): string {
  const value = formatMetric(input.metric, input.value, input.currency);
  const target = targetLabel(input.target, input.targetName);
  if (input.kind === "alert_resolved")
    return `Resolved: ${input.ruleName} (${input.metric} of ${target} back to ${value} on ${periodWords(input.period)})`;
  const words = baselineWords(input);
  const usual =
    input.baseline === null ? "" : `, against ${formatMetric(input.metric, input.baseline, input.currency)}${words ? ` (${words})` : ""}`;
  const moved = input.baseline !== null && input.value < input.baseline ? "fell to" : "rose to";
  return `${input.ruleName}: ${input.metric} of ${target} ${moved} ${value} on ${periodWords(input.period)}${usual}`;
}

/** Keeps a sign on the line of its amount: a line may otherwise break between "−" and "$". */
const WORD_JOINER = "\u2060";

/** "Channel facebook: … (101% of the change)" lines: the channels and products behind the move, products by name. */
export function whatMovedLines(input: AlertMessageInput): string[] {
  if (!input.whatMoved) return [];
  const line = (label: string) => (mover: WhatMoved["channels"][number]) =>
    `${label} ${mover.name ?? enumLabel(mover.key)}: ${formatMetric(input.metric, mover.current, input.currency)} against ${formatMetric(input.metric, mover.baseline, input.currency)} (${mover.change < 0 ? "−" : "+"}${WORD_JOINER}${formatMetric(input.metric, Math.abs(mover.change), input.currency)}, ${Math.round(mover.share * 100)}% of the change)`;
  return [...input.whatMoved.channels.map(line("Channel")), ...input.whatMoved.products.map(line("Product"))];
}

/** Text for Slack: `<`, `>` and `&` would start a mention or link, and line breaks or direction characters become a space. */
const slackEscape = (value: string) =>
  value
    .replace(new RegExp(`${LINE_BREAKING.source}|${DIRECTION_CHARACTERS.source}`, "g"), " ")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");

/** Slack's incoming-webhook shape, escaped for Slack, with the figures under `alert` (plain JSON) for other receivers. */
export function slackBody(input: AlertMessageInput, link: string | null) {
  const title = slackEscape(alertTitle(input));
  const lines = whatMovedLines(input).map(slackEscape);
  const details = lines.length ? `\n*What moved*\n${lines.map((text) => `• ${text}`).join("\n")}` : "";
  return {
    text: title,
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: `*${title}*${details}` } },
      ...(link ? [{ type: "context", elements: [{ type: "mrkdwn", text: `<${link}|Open the rule>` }] }] : []),
    ],
    alert: { ...input, link },
  };
}
