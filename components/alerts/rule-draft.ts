import type { AlertRuleInput } from "@/shared/schemas/alert";

/** The rule form's fields as typed (numbers and lists as text), and the rule they make. */
export interface RuleDraft {
  name: string;
  metric: AlertRuleInput["metric"];
  targetKind: AlertRuleInput["target"]["kind"];
  targetValue: string;
  savedViewId: string;
  granularity: AlertRuleInput["granularity"];
  kind: AlertRuleInput["condition"]["kind"];
  direction: "up" | "down" | "both";
  sensitivity: "low" | "medium" | "high";
  minVolume: string;
  weeks: string;
  operator: "above" | "below";
  threshold: string;
  emails: string;
  webhookUrl: string;
}

export const emptyDraft: RuleDraft = {
  name: "",
  metric: "revenue",
  targetKind: "store",
  targetValue: "",
  savedViewId: "",
  granularity: "day",
  kind: "anomaly",
  direction: "down",
  sensitivity: "medium",
  minVolume: "100",
  weeks: "8",
  operator: "below",
  threshold: "",
  emails: "",
  webhookUrl: "",
};

export function draftOf(rule: AlertRuleInput): RuleDraft {
  const { condition, target } = rule;
  return {
    ...emptyDraft,
    name: rule.name,
    metric: rule.metric,
    targetKind: target.kind,
    targetValue: target.kind === "channel" ? target.channel : target.kind === "product" ? target.productId : "",
    savedViewId: rule.savedViewId ?? "",
    granularity: rule.granularity,
    kind: condition.kind,
    ...(condition.kind === "anomaly"
      ? {
          direction: condition.direction,
          sensitivity: condition.sensitivity,
          minVolume: String(condition.minVolume),
          weeks: String(condition.weeks),
        }
      : { operator: condition.operator, threshold: String(condition.threshold) }),
    emails: rule.emails.join(", "),
    webhookUrl: rule.webhookUrl ?? "",
  };
}

/** The rule the draft describes; the server checks it with the same schema. */
export function ruleOf(draft: RuleDraft): AlertRuleInput {
  const value = draft.targetValue.trim();
  return {
    name: draft.name.trim(),
    metric: draft.metric,
    target:
      draft.targetKind === "store"
        ? { kind: "store" }
        : draft.targetKind === "channel"
          ? { kind: "channel", channel: value }
          : { kind: "product", productId: value },
    savedViewId: draft.savedViewId || null,
    granularity: draft.granularity,
    condition:
      draft.kind === "anomaly"
        ? {
            kind: "anomaly",
            direction: draft.direction,
            sensitivity: draft.sensitivity,
            minVolume: Number(draft.minVolume || 0),
            weeks: Number(draft.weeks),
          }
        : { kind: "threshold", operator: draft.operator, threshold: Number(draft.threshold) },
    emails: draft.emails
      .split(/[\s,;]+/)
      .map((email) => email.trim())
      .filter(Boolean),
    webhookUrl: draft.webhookUrl.trim() || null,
  };
}
