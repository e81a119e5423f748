"use client";

import { useState } from "react";
import type { DimensionValues } from "@/shared/schemas/product-metrics";
import { presetLabels, presets, type DateRange } from "@/shared/metrics/date-range";
import { listFilters, type ViewState } from "@/shared/metrics/view-state";
import { KNOWN_CHANNELS } from "@/shared/store-locale";
import { formatCountry } from "@/shared/format";
import { Button } from "@/components/ui/button";
import { MultiSelect } from "./multi-select";

const sourceOptions = [
  { value: "conversion", label: "Credit to the conversion", hint: "Each order counts for the channel and ad of the visit that converted." },
  {
    value: "first_touch",
    label: "Credit to the first touch",
    hint: "Each order counts for the channel and ad that first brought the customer.",
  },
  { value: "both", label: "Both side by side", hint: "The two attributions next to each other." },
] as const;

const labelClass = "block text-xs font-medium text-slate-600 dark:text-slate-400";
const fieldClass = "rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-900";

type Update = (patch: Partial<ViewState>) => void;

export function DateControls({
  state,
  range,
  onChange,
  bothComparisons = true,
}: {
  state: Pick<ViewState, "range" | "compare">;
  range: DateRange;
  onChange: Update;
  /** Offers the previous period and a year earlier side by side. */
  bothComparisons?: boolean;
}) {
  const [from, setFrom] = useState(range.startDate);
  const [to, setTo] = useState(range.endDate);
  const invalid = !from || !to || from > to;
  return (
    <div className="flex flex-wrap items-end gap-3">
      <div>
        <label htmlFor="range-preset" className={labelClass}>
          Date range
        </label>
        <select
          id="range-preset"
          value={state.range}
          onChange={(event) => {
            const value = event.target.value as ViewState["range"];
            onChange(
              value === "custom"
                ? { range: value, from: range.startDate, to: range.endDate }
                : { range: value, from: undefined, to: undefined },
            );
          }}
          className={fieldClass}
        >
          {presets.map((preset) => (
            <option key={preset} value={preset}>
              {presetLabels[preset]}
            </option>
          ))}
          <option value="custom">Custom range</option>
        </select>
      </div>
      {state.range === "custom" && (
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            if (!invalid) onChange({ range: "custom", from, to });
          }}
        >
          <div>
            <label htmlFor="range-from" className={labelClass}>
              From
            </label>
            <input
              id="range-from"
              type="date"
              value={from}
              max={to}
              onChange={(event) => setFrom(event.target.value)}
              className={fieldClass}
            />
          </div>
          <div>
            <label htmlFor="range-to" className={labelClass}>
              To
            </label>
            <input
              id="range-to"
              type="date"
              value={to}
              min={from}
              onChange={(event) => setTo(event.target.value)}
              className={fieldClass}
              aria-invalid={invalid || undefined}
            />
          </div>
          <Button type="submit" variant="secondary" disabled={invalid}>
            Apply
          </Button>
        </form>
      )}
      <div>
        <label htmlFor="compare" className={labelClass}>
          Compare with
        </label>
        <select
          id="compare"
          value={state.compare}
          onChange={(event) => onChange({ compare: event.target.value as ViewState["compare"] })}
          className={fieldClass}
        >
          <option value="off">No comparison</option>
          <option value="previous">Previous period</option>
          <option value="year">A year earlier (same weekdays)</option>
          {bothComparisons && <option value="both">Previous period and a year earlier</option>}
        </select>
      </div>
    </div>
  );
}

export function AttributionControl({ state, onChange }: { state: ViewState; onChange: Update }) {
  return (
    <fieldset>
      <legend className="text-xs font-medium text-slate-600 dark:text-slate-400">Attribution</legend>
      <div className="mt-1 flex flex-wrap gap-2">
        {sourceOptions.map((option) => (
          <label
            key={option.value}
            title={option.hint}
            className={`flex cursor-pointer items-center gap-2 rounded-lg border px-3 py-1.5 text-sm has-[:focus-visible]:outline has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-indigo-500 ${
              state.source === option.value
                ? "border-indigo-500 bg-indigo-50 dark:bg-indigo-950/50"
                : "border-slate-300 dark:border-slate-700"
            }`}
          >
            <input
              type="radio"
              name="attribution"
              className="sr-only"
              value={option.value}
              checked={state.source === option.value}
              onChange={() => onChange({ source: option.value })}
            />
            {option.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export function FilterControls({
  state,
  dimensions,
  dimensionsLoading,
  channelsInView,
  productNames,
  onChange,
}: {
  state: ViewState;
  dimensions?: DimensionValues;
  dimensionsLoading: boolean;
  channelsInView: string[];
  productNames: Map<string, string>;
  onChange: Update;
}) {
  // A channel without a name cannot be chosen: its value would be "All channels".
  const channels = [...new Set([...KNOWN_CHANNELS, ...channelsInView, ...(state.channel ? [state.channel] : [])])].filter(Boolean);
  const [adId, setAdId] = useState(state.adId ?? "");
  return (
    <div className="grid grid-cols-2 items-end gap-3 sm:grid-cols-3 lg:grid-cols-7">
      <div>
        <label htmlFor="channel" className={labelClass}>
          Channel
        </label>
        <select
          id="channel"
          value={state.channel ?? ""}
          onChange={(event) => onChange({ channel: event.target.value || undefined })}
          className={`${fieldClass} w-full`}
        >
          <option value="">All channels</option>
          {channels.map((channel) => (
            <option key={channel} value={channel}>
              {channel}
            </option>
          ))}
        </select>
      </div>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onChange({ adId: adId.trim() || undefined });
        }}
      >
        <label htmlFor="ad-id" className={labelClass}>
          Ad ID
        </label>
        <input
          id="ad-id"
          placeholder="Any ad"
          value={adId}
          onChange={(event) => setAdId(event.target.value)}
          onBlur={() => onChange({ adId: adId.trim() || undefined })}
          className={`${fieldClass} w-full`}
        />
      </form>
      {listFilters.map((filter) => (
        <MultiSelect
          key={filter.key}
          label={filter.label}
          options={dimensions?.[filter.dimension] ?? []}
          loading={dimensionsLoading}
          selected={state[filter.key]}
          describe={(value) => describeValue(filter.key, value, productNames)}
          onChange={(values) => onChange({ [filter.key]: values })}
        />
      ))}
    </div>
  );
}

/** A filter value in words: a product by its name, a country by its name with the code beside. */
function describeValue(key: (typeof listFilters)[number]["key"], value: string, productNames: Map<string, string>): string {
  if (key === "products") return productNames.get(value) ?? value;
  return key === "countries" ? formatCountry(value) : value;
}

/** The active filters as removable chips, and one "clear all". */
export function FilterChips({ state, productNames, onChange }: { state: ViewState; productNames: Map<string, string>; onChange: Update }) {
  const chips: { label: string; remove: Partial<ViewState> }[] = [];
  if (state.channel) chips.push({ label: `Channel: ${state.channel}`, remove: { channel: undefined } });
  if (state.adId) chips.push({ label: `Ad: ${state.adId}`, remove: { adId: undefined } });
  for (const filter of listFilters) {
    for (const value of state[filter.key]) {
      chips.push({
        label: `${filter.label}: ${describeValue(filter.key, value, productNames)}`,
        remove: { [filter.key]: state[filter.key].filter((item) => item !== value) },
      });
    }
  }
  if (chips.length === 0) return null;
  return (
    <div className="flex flex-wrap items-center gap-2" aria-label="Active filters" role="group">
      {chips.map((chip) => (
        <button
          key={chip.label}
          type="button"
          onClick={() => onChange(chip.remove)}
          aria-label={`Remove filter ${chip.label}`}
          className="inline-flex items-center gap-1 rounded-full bg-indigo-100 px-3 py-1 text-xs font-medium text-indigo-900 hover:bg-indigo-200 dark:bg-indigo-950 dark:text-indigo-200 dark:hover:bg-indigo-900"
        >
          {chip.label} <span aria-hidden="true">×</span>
        </button>
      ))}
      <button
        type="button"
        className="text-xs font-medium text-slate-700 underline dark:text-slate-300"
        onClick={() => onChange({ channel: undefined, adId: undefined, countries: [], devices: [], os: [], browsers: [], products: [] })}
      >
        Clear all
      </button>
    </div>
  );
}
