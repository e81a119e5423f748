"use client";

import type { ReactNode } from "react";

const inputClass =
  "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm aria-invalid:border-rose-500 dark:border-slate-700 dark:bg-slate-950";

interface FieldProps {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
}

/** A control under its label, with its hint and error beneath it. */
function Field({ id, label, hint, error, children }: FieldProps & { children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      {children}
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500 dark:text-slate-400">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-rose-700 dark:text-rose-400">
          {error}
        </p>
      )}
    </div>
  );
}

const describedBy = ({ id, hint, error }: FieldProps) =>
  [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;

export function TextInput(
  props: FieldProps & { value: string; onChange: (value: string) => void; inputMode?: "decimal" | "numeric" | "email" | "url" },
) {
  return (
    <Field {...props}>
      <input
        id={props.id}
        value={props.value}
        inputMode={props.inputMode}
        autoComplete="off"
        spellCheck={false}
        onChange={(event) => props.onChange(event.target.value)}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy(props)}
        className={inputClass}
      />
    </Field>
  );
}

export function SelectInput<T extends string>(
  props: FieldProps & { value: T; onChange: (value: T) => void; options: readonly (readonly [T, string])[] },
) {
  return (
    <Field {...props}>
      <select
        id={props.id}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value as T)}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy(props)}
        className={inputClass}
      >
        {props.options.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
    </Field>
  );
}
