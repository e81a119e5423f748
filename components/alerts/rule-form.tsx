"use client";

import { useState, type FormEvent } from "react";
import { alertRuleInputSchema, type AlertRuleInput } from "@/shared/schemas/alert";
import { KNOWN_CHANNELS } from "@/shared/store-locale";
import { useBacktest } from "@/client/queries/alerts";
import { useSavedViews } from "@/client/queries/saved-views";
import { useStoreProfile } from "@/client/queries/store";
import { metricUnit } from "@/shared/alert-message";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ErrorPanel } from "@/components/ui/error-panel";
import { Skeleton } from "@/components/ui/states";
import { BacktestChart } from "./backtest-chart";
import { SelectInput, TextInput } from "./form-fields";
import { emptyDraft, ruleOf, type RuleDraft } from "./rule-draft";

type Errors = Partial<Record<keyof RuleDraft | "form", string>>;

/** Which form field a schema issue belongs to. */
function fieldOf(path: readonly PropertyKey[]): keyof RuleDraft | "form" {
  const [first, second] = path.map(String);
  if (first === "target") return "targetValue";
  if (first === "condition") return (second as keyof RuleDraft) ?? "form";
  if (first === "savedViewId") return "savedViewId";
  return (first as keyof RuleDraft) ?? "form";
}

/**
 * The rule form, with its backtest: "over the last 90 days this rule would have fired on these
 * dates", drawn on the time chart, so the sensitivity is chosen with evidence before saving.
 */
export function RuleForm(props: {
  storeUrl: string;
  organizationId?: string;
  initial?: RuleDraft;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (rule: AlertRuleInput) => void;
}) {
  const [draft, setDraft] = useState<RuleDraft>(props.initial ?? emptyDraft);
  const [errors, setErrors] = useState<Errors>({});
  const views = useSavedViews(props.storeUrl, props.organizationId);
  const backtest = useBacktest(props.storeUrl, props.organizationId);
  // Thresholds and minimum volumes are in the metric's unit: the store's currency for revenue.
  const unit = metricUnit(draft.metric, useStoreProfile(props.storeUrl, props.organizationId).data?.currency ?? null);
  const set =
    <K extends keyof RuleDraft>(key: K) =>
    (value: RuleDraft[K]) =>
      setDraft((current) => ({ ...current, [key]: value }));

  const checked = (): AlertRuleInput | null => {
    const parsed = alertRuleInputSchema.safeParse(ruleOf(draft));
    if (parsed.success) {
      setErrors({});
      return parsed.data;
    }
    const found: Errors = {};
    for (const issue of parsed.error.issues) found[fieldOf(issue.path)] ??= issue.message;
    setErrors(found);
    return null;
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const rule = checked();
    if (rule) props.onSubmit(rule);
  };
  const runBacktest = () => {
    const rule = checked();
    if (rule) backtest.mutate(rule);
  };

  return (
    <form method="post" onSubmit={submit} noValidate aria-label="Alert rule" className="space-y-6">
      <Card title="What to watch">
        <div className="grid grid-cols-1 gap-5 md:grid-cols-2">
          <TextInput id="rule-name" label="Name" value={draft.name} onChange={set("name")} error={errors.name} />
          <SelectInput
            id="rule-metric"
            label="Metric"
            value={draft.metric}
            onChange={set("metric")}
            options={[
              ["revenue", "Revenue"],
              ["orders", "Orders"],
              ["units", "Units"],
            ]}
          />
          <SelectInput
            id="rule-target"
            label="Of"
            value={draft.targetKind}
            onChange={set("targetKind")}
            options={[
              ["store", "The whole store"],
              ["channel", "One channel"],
              ["product", "One product"],
            ]}
          />
          {draft.targetKind !== "store" && (
            <TextInput
              id="rule-target-value"
              label={draft.targetKind === "channel" ? "Channel" : "Product ID"}
              hint={draft.targetKind === "channel" ? `For example ${KNOWN_CHANNELS.slice(0, 3).join(", ")}.` : undefined}
              value={draft.targetValue}
              onChange={set("targetValue")}
              error={errors.targetValue}
            />
          )}
          <SelectInput
            id="rule-view"
            label="Within a saved view's filters"
            hint={
              views.isError
                ? "The saved views could not be loaded."
                : "The view's filters narrow what the rule reads; its dates are not used."
            }
            value={draft.savedViewId}
            onChange={set("savedViewId")}
            error={errors.savedViewId}
            options={[["", "No saved view: everything"], ...(views.data?.views ?? []).map((view) => [view.id, view.name] as const)]}
          />
          <SelectInput
            id="rule-granularity"
            label="Check each"
            value={draft.granularity}
            onChange={set("granularity")}
            options={[
              ["day", "Day (the day before, in the store's time zone)"],
              ["hour", "Hour (the hour before)"],
            ]}
          />
        </div>
      </Card>

      <Card title="When to alert">
        <div className="grid grid-cols-1 gap-5 md:grid-cols-2">
          <SelectInput
            id="rule-kind"
            label="Condition"
            value={draft.kind}
            onChange={set("kind")}
            options={[
              ["anomaly", "Anomaly: out of line with the same weekday of recent weeks"],
              ["threshold", "Threshold: above or below a value"],
            ]}
          />
          {draft.kind === "anomaly" ? (
            <>
              <SelectInput
                id="rule-direction"
                label="Direction"
                value={draft.direction}
                onChange={set("direction")}
                options={[
                  ["down", "Falls"],
                  ["up", "Rises"],
                  ["both", "Falls or rises"],
                ]}
              />
              <SelectInput
                id="rule-sensitivity"
                label="Sensitivity"
                hint="High fires on smaller moves. Run the backtest to see how often each would have fired."
                value={draft.sensitivity}
                onChange={set("sensitivity")}
                options={[
                  ["low", "Low"],
                  ["medium", "Medium"],
                  ["high", "High"],
                ]}
              />
              <TextInput
                id="rule-weeks"
                label="Weeks compared"
                hint="4 to 8 earlier weeks, the same weekday (and hour)."
                inputMode="numeric"
                value={draft.weeks}
                onChange={set("weeks")}
                error={errors.weeks}
              />
              <TextInput
                id="rule-min-volume"
                label={`Minimum volume (${unit})`}
                hint="Below this, in the value and in its usual level, nothing fires: small numbers swing."
                inputMode="decimal"
                value={draft.minVolume}
                onChange={set("minVolume")}
                error={errors.minVolume}
              />
            </>
          ) : (
            <>
              <SelectInput
                id="rule-operator"
                label="Fires when the value is"
                value={draft.operator}
                onChange={set("operator")}
                options={[
                  ["below", "Below"],
                  ["above", "Above"],
                ]}
              />
              <TextInput
                id="rule-threshold"
                label={`Threshold (${unit})`}
                inputMode="decimal"
                value={draft.threshold}
                onChange={set("threshold")}
                error={errors.threshold}
              />
            </>
          )}
        </div>
      </Card>

      <Card title="Where to send it">
        <div className="grid grid-cols-1 gap-5 md:grid-cols-2">
          <p className="text-sm text-slate-600 md:col-span-2 dark:text-slate-400">
            Every notification goes to the organization&apos;s inbox. It can also go by e-mail and to a webhook.
          </p>
          <TextInput
            id="rule-emails"
            label="E-mail addresses"
            hint="Separated by commas."
            inputMode="email"
            value={draft.emails}
            onChange={set("emails")}
            error={errors.emails}
          />
          <TextInput
            id="rule-webhook"
            label="Webhook URL"
            hint="Slack-compatible JSON, signed (see the rule's secret once saved)."
            inputMode="url"
            value={draft.webhookUrl}
            onChange={set("webhookUrl")}
            error={errors.webhookUrl}
          />
        </div>
      </Card>

      <Card
        title="Backtest"
        actions={
          <Button variant="secondary" onClick={runBacktest} disabled={backtest.isPending}>
            {backtest.isPending ? "Running the backtest…" : "Run the backtest"}
          </Button>
        }
      >
        {backtest.isPending ? (
          <Skeleton label="Judging the last 90 days" />
        ) : backtest.isError ? (
          <ErrorPanel error={backtest.error} onRetry={runBacktest} />
        ) : backtest.data ? (
          <BacktestChart
            backtest={backtest.data}
            metric={draft.metric}
            threshold={draft.kind === "threshold" && draft.threshold.trim() !== "" ? Number(draft.threshold) : undefined}
          />
        ) : (
          <p className="text-sm text-slate-600 dark:text-slate-400">See on which days of the last 90 this rule would have fired.</p>
        )}
      </Card>

      {props.error ? <ErrorPanel error={props.error} /> : null}
      {errors.form && <p className="text-sm text-rose-700 dark:text-rose-400">{errors.form}</p>}
      <Button type="submit" disabled={props.pending}>
        {props.pending ? "Saving…" : props.submitLabel}
      </Button>
    </form>
  );
}
