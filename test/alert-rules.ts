import type { AlertRuleInput } from "@/shared/schemas/alert";

/** Fires on any day the store sold something (yesterday's revenue above 0): a rule that fires at once. */
export const ANY_SALE = { kind: "threshold", operator: "above", threshold: 0 } as const;

/** Fires on a day under 1 of the figure: a rule that stays quiet on the demo stores. */
export const UNDER_ONE = { kind: "threshold", operator: "below", threshold: 1 } as const;

/** A rule on the store's daily revenue that tells nobody, unless `more` names addresses or a webhook. */
export function storeRule(name: string, condition: AlertRuleInput["condition"], more: Partial<AlertRuleInput> = {}): AlertRuleInput {
  return {
    name,
    metric: "revenue",
    target: { kind: "store" },
    savedViewId: null,
    granularity: "day",
    condition,
    emails: [],
    webhookUrl: null,
    ...more,
  };
}

/** An unusual drop in Facebook's daily orders, judged against the six weeks before. */
export const FACEBOOK_ORDERS_DROP: AlertRuleInput = {
  name: "Facebook orders",
  metric: "orders",
  target: { kind: "channel", channel: "facebook" },
  savedViewId: null,
  granularity: "day",
  condition: { kind: "anomaly", direction: "down", sensitivity: "medium", minVolume: 3, weeks: 6 },
  emails: [],
  webhookUrl: null,
};
