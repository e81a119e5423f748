import { formatCurrency, formatNumber } from "@/shared/format";
import type { AlertMessageInput, AlertMetric, AlertTarget, WhatMoved } from "@/shared/schemas/alert";

/** What a notification says, in the store's currency; the inbox, webhooks and e-mail all use it. */
export function formatMetric(metric: AlertMetric, value: number, currency: string | null): string {
  return metric === "revenue" ? formatCurrency(value, currency) : formatNumber(value);
}

export function targetLabel(target: AlertTarget): string {
  return target.kind === "store"
    ? "the whole store"
    : target.kind === "channel"
      ? `channel ${target.channel}`
      : `product ${target.productId}`;
}

export function alertTitle(input: AlertMessageInput): string {
  const value = formatMetric(input.metric, input.value, input.currency);
  if (input.kind === "alert_resolved")
    return `Resolved: ${input.ruleName} (${input.metric} of ${targetLabel(input.target)} back to ${value} on ${input.period})`;
  const usual = input.baseline === null ? "" : `, against ${formatMetric(input.metric, input.baseline, input.currency)}`;
  const moved = input.baseline !== null && input.value < input.baseline ? "fell to" : "rose to";
  return `${input.ruleName}: ${input.metric} of ${targetLabel(input.target)} ${moved} ${value} on ${input.period}${usual}`;
}

/** "facebook −980.00 (101%)" lines: the channels and products behind the move. */
export function whatMovedLines(input: AlertMessageInput): string[] {
  if (!input.whatMoved) return [];
  const line = (label: string) => (mover: WhatMoved["channels"][number]) =>
    `${label} ${mover.key}: ${formatMetric(input.metric, mover.current, input.currency)} against ${formatMetric(input.metric, mover.baseline, input.currency)} (${mover.change < 0 ? "−" : "+"}${formatMetric(input.metric, Math.abs(mover.change), input.currency)}, ${Math.round(mover.share * 100)}% of the change)`;
  return [...input.whatMoved.channels.map(line("Channel")), ...input.whatMoved.products.map(line("Product"))];
}

/** Text as it may stand in a Slack message: `<`, `>` and `&` would start a mention (`<!channel>`) or a link. */
const slackEscape = (value: string) => value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * Slack's incoming-webhook shape (`text`, `blocks`), its words escaped for Slack, with the figures
 * under `alert` (plain JSON, as given) for other receivers.
 */
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
