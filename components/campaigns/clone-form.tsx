"use client";

import type { FormEvent } from "react";
import { useState, useSyncExternalStore } from "react";
import { activeSpendWarning, budgetExplanation } from "@/shared/campaign-budget";
import { interpretCurrency, quoteValue, type TimeZoneReading } from "@/shared/store-locale";
import { cloneFormSchema, type CloneCampaignRequest, type CloneFormField, type CloneFormValues } from "@/shared/schemas/campaign-clone";
import { Button } from "@/components/ui/button";
import { FallbackNote } from "@/components/ui/fallback-note";
import type { Suggestion } from "./clone-suggestions";
import { fieldId, SourceStatus, TextField, type SourceLookup } from "./clone-fields";

const noSubscription = () => () => {};
/** False while the page is server-rendered HTML only, true once its script runs. */
const useInteractive = () =>
  useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );

export type FieldErrors = Partial<Record<CloneFormField, string>>;

const suggestionCount = (count: number, from: string) =>
  count > 0 ? `${count} ${count === 1 ? "suggestion" : "suggestions"} ${from}` : "";

interface CloneFormProps {
  values: CloneFormValues;
  onChange: (change: Partial<CloneFormValues>) => void;
  /** Errors the route or the upstream gave for the last request, by field. */
  serverErrors: FieldErrors;
  source: SourceLookup;
  /** The store's time zone as read by `interpretTimeZone`. */
  zone: TimeZoneReading;
  /** The store's currency as the upstream gives it. */
  storeCurrency: string;
  /** Ad accounts and campaign groups this store cloned from before. */
  suggestions?: { accounts: readonly Suggestion[]; groups: readonly Suggestion[]; fromClones?: number; fromMetrics?: number };
  onSubmit: (request: CloneCampaignRequest) => void;
}

/**
 * The clone form: the fields as typed, checked with the schema the route uses, errors next
 * to their fields. It only hands a valid request to `onSubmit`; sending is the container's.
 */
export function CloneForm({ values, onChange, serverErrors, source, zone, storeCurrency, suggestions, onSubmit }: CloneFormProps) {
  // Errors show from the first attempt to submit on, and follow every change after it.
  const interactive = useInteractive();
  const [attempted, setAttempted] = useState(false);
  const parsed = cloneFormSchema(zone).safeParse(values);
  const localErrors: FieldErrors = {};
  if (!parsed.success) for (const issue of parsed.error.issues) localErrors[issue.path[0] as CloneFormField] ??= issue.message;
  const errors = { ...serverErrors, ...(attempted ? localErrors : {}) };
  const budget = Number(values.budget);
  const amount = Number.isFinite(budget) && budget > 0 && values.currencyCode.length === 3 ? budget : undefined;
  const sourceBudgets = source.state === "found" ? source.asset : undefined;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (parsed.success) {
      onSubmit(parsed.data);
      return;
    }
    setAttempted(true);
    const first = (Object.keys(values) as CloneFormField[]).find((field) => localErrors[field]);
    if (first) document.getElementById(fieldId(first))?.focus();
  }

  return (
    <form method="post" onSubmit={submit} noValidate aria-label="Clone a campaign group" className="space-y-5">
      {suggestions && suggestions.groups.length > 0 && (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          {[
            suggestionCount(suggestions.fromClones ?? suggestions.groups.length, "from this store's earlier clones"),
            suggestionCount(suggestions.fromMetrics ?? 0, "that LinkedIn names for the store's ads of the last 90 days"),
          ]
            .filter(Boolean)
            .join(", ")}
          : type a name or an ID in a field to pick one, or type any other ID.
        </p>
      )}
      <div className="grid grid-cols-1 gap-5 md:grid-cols-2">
        <TextField
          field="adAccountId"
          label="Ad account ID"
          hint="The LinkedIn ad account that holds the campaign group: in Campaign Manager, the number after /accounts/ in the address bar, also shown beside the account's name in the account list."
          mono
          inputMode="numeric"
          suggestions={suggestions?.accounts}
          value={values.adAccountId}
          error={errors.adAccountId}
          onChange={(adAccountId) => onChange({ adAccountId })}
        />
        <TextField
          field="sourceCampaignGroupId"
          label="Source campaign group ID"
          hint="The campaign group to copy: in Campaign Manager, the ID column of the Campaign groups tab, or the number after campaignGroupIds= in the address bar once the group is opened."
          mono
          inputMode="numeric"
          suggestions={suggestions?.groups}
          value={values.sourceCampaignGroupId}
          error={errors.sourceCampaignGroupId}
          onChange={(sourceCampaignGroupId) => onChange({ sourceCampaignGroupId })}
        >
          <SourceStatus lookup={source} />
        </TextField>
        <div className="md:col-span-2">
          <TextField field="name" label="New name" value={values.name} error={errors.name} onChange={(name) => onChange({ name })} />
        </div>
        <TextField
          field="start"
          label="Start"
          type="datetime-local"
          hint={
            zone.fallbackNote ? `Date and time in ${zone.label} (see below).` : `Date and time in the store's time zone, ${zone.label}.`
          }
          value={values.start}
          error={errors.start}
          onChange={(start) => onChange({ start })}
        />
        <TextField
          field="end"
          label="End (optional)"
          type="datetime-local"
          hint={`Leave empty to run without an end date. ${zone.label}.`}
          value={values.end}
          error={errors.end}
          onChange={(end) => onChange({ end })}
        />
        {zone.fallbackNote && (
          <div className="space-y-2 md:col-span-2">
            <FallbackNote text={zone.fallbackNote} />
            {!zone.certain && (
              <label className="flex items-start gap-2 text-sm">
                <input
                  id={fieldId("zoneConfirmed")}
                  type="checkbox"
                  checked={values.zoneConfirmed}
                  onChange={(event) => onChange({ zoneConfirmed: event.target.checked })}
                  aria-invalid={errors.zoneConfirmed ? true : undefined}
                  aria-describedby={errors.zoneConfirmed ? `${fieldId("zoneConfirmed")}-error` : undefined}
                  className="mt-0.5 h-4 w-4 rounded border-slate-300 dark:border-slate-700"
                />
                <span>The start and end above are in {zone.label}</span>
              </label>
            )}
            {errors.zoneConfirmed && (
              <p id={`${fieldId("zoneConfirmed")}-error`} className="text-sm text-rose-700 dark:text-rose-400">
                {errors.zoneConfirmed}
              </p>
            )}
          </div>
        )}
        <TextField
          field="budget"
          label={`Daily budget (${values.currencyCode || "currency"})`}
          hint={
            amount !== undefined
              ? budgetExplanation(amount, values.currencyCode, sourceBudgets)
              : "Per day, in the currency's major unit, greater than 0; it replaces the source's daily budget."
          }
          inputMode="decimal"
          value={values.budget}
          error={errors.budget}
          onChange={(value) => onChange({ budget: value.trim() })}
        />
        <TextField
          field="currencyCode"
          label="Currency"
          hint={
            interpretCurrency(storeCurrency).code
              ? "The store's currency by default; it must be the ad account's."
              : `The store's currency, ${storeCurrency.trim() ? quoteValue(storeCurrency, 24) : "none"}, is not a currency code: enter the ad account's.`
          }
          mono
          value={values.currencyCode}
          error={errors.currencyCode}
          onChange={(currencyCode) => onChange({ currencyCode: currencyCode.toUpperCase() })}
        />
      </div>

      <fieldset className="space-y-3 rounded-lg border border-slate-200 p-4 dark:border-slate-800">
        <legend className="px-1 text-sm font-medium">Status of the clone</legend>
        {!values.startDelivering && (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            The clone is created <strong>PAUSED</strong>: it spends nothing until someone starts it.
          </p>
        )}
        <label className="flex items-start gap-2 text-sm">
          <input
            id={fieldId("startDelivering")}
            type="checkbox"
            checked={values.startDelivering}
            onChange={(event) => onChange({ startDelivering: event.target.checked, confirmation: "" })}
            className="mt-0.5 h-4 w-4 rounded border-slate-300 dark:border-slate-700"
          />
          <span>Start delivering immediately (ACTIVE)</span>
        </label>
        {values.startDelivering && (
          <div className="rounded-lg border border-amber-200 bg-amber-50 p-3 dark:border-amber-900 dark:bg-amber-950/40">
            <p className="mb-2 text-sm text-amber-950 dark:text-amber-100" data-testid="active-warning">
              {activeSpendWarning(amount, values.currencyCode, sourceBudgets)}
            </p>
            <TextField
              field="confirmation"
              label="Type the new name to confirm"
              value={values.confirmation}
              error={errors.confirmation}
              onChange={(confirmation) => onChange({ confirmation })}
            />
          </div>
        )}
      </fieldset>

      <div className="flex justify-end">
        {/* Disabled until the page's script runs: a form sent before it would only reload the page. */}
        <Button type="submit" disabled={!interactive}>
          Review the clone
        </Button>
      </div>
    </form>
  );
}
