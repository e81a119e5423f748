"use client";

import type { HTMLAttributes, ReactNode } from "react";
import { enumLabel, statusTone } from "@/shared/store-locale";
import type { CloneFormField } from "@/shared/schemas/campaign-clone";
import type { EnrichedAsset } from "@/shared/schemas/enrich";
import { Badge } from "@/components/ui/card";
import { statusWords } from "@/shared/words";
import { suggestionLabel, type Suggestion } from "./clone-suggestions";

/** How the source campaign group ID resolved through enrich, if it did. */
export type SourceLookup = { state: "idle" | "loading" | "not-found" | "failed" } | { state: "found"; asset: EnrichedAsset };

export const fieldId = (field: CloneFormField) => `clone-${field}`;

const inputClass =
  "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm aria-invalid:border-rose-500 dark:border-slate-700 dark:bg-slate-950 dark:aria-invalid:border-rose-500";

export function TextField(props: {
  field: CloneFormField;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  value: string;
  onChange: (value: string) => void;
  type?: "text" | "datetime-local";
  inputMode?: HTMLAttributes<HTMLInputElement>["inputMode"];
  mono?: boolean;
  /** Suggestions to pick from (a datalist): the field stays free to type any ID. */
  suggestions?: readonly Suggestion[];
  children?: ReactNode;
}) {
  const id = fieldId(props.field);
  const describedBy = [props.hint ? `${id}-hint` : "", props.error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {props.label}
      </label>
      <input
        id={id}
        name={props.field}
        type={props.type ?? "text"}
        inputMode={props.inputMode}
        autoComplete="off"
        spellCheck={false}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy}
        list={props.suggestions?.length ? `${id}-suggestions` : undefined}
        className={`${inputClass} ${props.mono ? "font-mono" : ""}`}
      />
      {props.suggestions && props.suggestions.length > 0 && (
        <datalist id={`${id}-suggestions`}>
          {props.suggestions.map((suggestion) => (
            <option key={suggestion.id} value={suggestion.id} label={suggestionLabel(suggestion)} />
          ))}
        </datalist>
      )}
      {props.hint && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500 dark:text-slate-400">
          {props.hint}
        </p>
      )}
      {props.error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-rose-700 dark:text-rose-400">
          {props.error}
        </p>
      )}
      {props.children}
    </div>
  );
}

export function SourceStatus({ lookup }: { lookup: SourceLookup }) {
  const text: Record<Exclude<SourceLookup["state"], "found">, string> = {
    idle: "",
    loading: "Looking up the campaign group…",
    "not-found": "No LinkedIn campaign group with this ID was found in this store. Check the ID; the upstream will refuse an unknown one.",
    failed: "The campaign group could not be looked up just now. You can still continue.",
  };
  return (
    <div aria-live="polite" className="mt-2 text-sm">
      {lookup.state === "found" ? (
        <p className="flex flex-wrap items-center gap-2">
          <span className="font-medium">{lookup.asset.assetName}</span>
          <Badge tone={statusTone(lookup.asset.assetStatus)}>{statusWords(enumLabel(lookup.asset.assetStatus))}</Badge>
          {lookup.asset.assetEffectiveStatus !== lookup.asset.assetStatus && <Badge>{lookup.asset.assetEffectiveStatus}</Badge>}
        </p>
      ) : (
        text[lookup.state] && (
          <p className={lookup.state === "not-found" ? "text-amber-800 dark:text-amber-300" : "text-slate-500 dark:text-slate-400"}>
            {text[lookup.state]}
          </p>
        )
      )}
    </div>
  );
}
