import type { ReactNode } from "react";
import { formatDateTime } from "@/lib/format";

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** Shows a value whose shape the contract does not give (catalog fields, metadata, results) as key/value pairs. */
export function GenericValue({ value }: { value: unknown }): ReactNode {
  if (value === null || value === undefined) return <span className="text-slate-500 dark:text-slate-400">—</span>;
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "string" && ISO_TIMESTAMP.test(value)) return <time dateTime={value}>{formatDateTime(value)}</time>;
  if (typeof value !== "object") return String(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="text-slate-500 dark:text-slate-400">none</span>;
    return (
      <ul className="list-inside list-disc">
        {value.map((item, index) => (
          <li key={index}>
            <GenericValue value={item} />
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
          <dt className="font-mono text-xs text-slate-500 dark:text-slate-400">{key}</dt>
          <dd className="min-w-0 break-all text-sm">
            <GenericValue value={item} />
          </dd>
        </div>
      ))}
    </dl>
  );
}
