import type { ReactNode } from "react";
import { formatDateTime } from "@/shared/format";
import { epochOf, fieldLabel, statusWords } from "@/shared/words";
import { Breakable } from "./breakable";

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/**
 * Shows a value whose shape the contract does not give (catalog fields, metadata, results) as
 * labelled pairs: keys read as words, instants as dates in `timeZone` (the store's), status
 * values as words, addresses and IDs breaking only at their separators.
 */
export function GenericValue({ value, name = "", timeZone }: { value: unknown; name?: string; timeZone?: string }): ReactNode {
  if (value === null || value === undefined) return <span className="text-slate-500 dark:text-slate-400">—</span>;
  if (typeof value === "boolean") return value ? "yes" : "no";
  const instant = epochOf(name, value);
  if (instant !== undefined || (typeof value === "string" && ISO_TIMESTAMP.test(value))) {
    const date = new Date(instant ?? (value as string));
    return (
      <time dateTime={Number.isNaN(date.getTime()) ? undefined : date.toISOString()} title={String(value)}>
        {formatDateTime(date, timeZone)}
      </time>
    );
  }
  if (typeof value === "string") {
    if (/status$/i.test(name)) return statusWords(value);
    return /\s/.test(value) ? value : <Breakable text={value} />;
  }
  if (typeof value !== "object") return String(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="text-slate-500 dark:text-slate-400">none</span>;
    return (
      <ul className="list-inside list-disc">
        {value.map((item, index) => (
          <li key={index}>
            <GenericValue value={item} name={name} timeZone={timeZone} />
          </li>
        ))}
      </ul>
    );
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return <span className="text-slate-500 dark:text-slate-400">empty</span>;
  return (
    <dl className="grid grid-cols-[minmax(6rem,auto)_minmax(0,1fr)] gap-x-3 gap-y-1">
      {entries.map(([key, item]) => (
        <div key={key} className="contents">
          <dt className="text-xs text-slate-600 dark:text-slate-400" title={key}>
            {fieldLabel(key)}
          </dt>
          <dd className="min-w-0 text-sm break-words">
            <GenericValue value={item} name={key} timeZone={timeZone} />
          </dd>
        </div>
      ))}
    </dl>
  );
}
