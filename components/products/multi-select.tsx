"use client";

import { useId, useMemo, useRef, useState } from "react";

/**
 * A searchable multi-select: a button that opens a panel with a search box and one
 * checkbox per value. Escape closes it and returns focus to the button.
 */
export function MultiSelect({
  label,
  options,
  selected,
  onChange,
  describe = (value) => value,
  loading = false,
}: {
  label: string;
  options: readonly string[];
  selected: readonly string[];
  onChange: (values: string[]) => void;
  describe?: (value: string) => string;
  loading?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState("");
  const id = useId();
  const button = useRef<HTMLButtonElement>(null);
  // Selected values stay listed even when the current range no longer has them.
  const all = useMemo(() => [...new Set([...selected, ...options])], [options, selected]);
  const visible = all.filter((value) => describe(value).toLowerCase().includes(search.trim().toLowerCase()));

  const toggle = (value: string) => onChange(selected.includes(value) ? selected.filter((item) => item !== value) : [...selected, value]);

  return (
    <div
      className="relative"
      onKeyDown={(event) => {
        if (event.key === "Escape" && open) {
          setOpen(false);
          button.current?.focus();
        }
      }}
    >
      <button
        ref={button}
        type="button"
        // The count is for the eye; the button's name carries the values themselves.
        aria-label={selected.length > 0 ? `${label}: ${selected.map(describe).join(", ")}` : label}
        aria-expanded={open}
        aria-controls={`${id}-panel`}
        onClick={() => setOpen(!open)}
        className="flex w-full items-center justify-between gap-2 rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-left text-sm dark:border-slate-700 dark:bg-slate-900"
      >
        <span className="min-w-0">
          {label}
          {selected.length > 0 && (
            <span
              aria-hidden="true"
              className="ml-1 rounded-full bg-indigo-100 px-1.5 text-xs font-semibold text-indigo-800 dark:bg-indigo-950 dark:text-indigo-200"
            >
              {selected.length}
            </span>
          )}
        </span>
        <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <div
          id={`${id}-panel`}
          role="group"
          aria-label={`${label} filter`}
          className="absolute z-20 mt-1 w-72 max-w-[90vw] rounded-lg border border-slate-200 bg-white p-2 shadow-lg dark:border-slate-700 dark:bg-slate-900"
        >
          <label htmlFor={`${id}-search`} className="mb-1 block text-xs font-medium text-slate-600 dark:text-slate-400">
            Search {label.toLowerCase()}
          </label>
          <input
            id={`${id}-search`}
            type="search"
            autoFocus
            placeholder={`Search ${label.toLowerCase()}…`}
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            className="mb-2 w-full rounded-md border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-950"
          />
          <ul className="max-h-60 overflow-y-auto">
            {loading && <li className="px-2 py-1 text-sm text-slate-500 dark:text-slate-400">Loading values…</li>}
            {!loading && visible.length === 0 && <li className="px-2 py-1 text-sm text-slate-500 dark:text-slate-400">No values</li>}
            {visible.map((value) => (
              <li key={value}>
                <label className="flex cursor-pointer items-center gap-2 rounded px-2 py-1 text-sm hover:bg-slate-100 dark:hover:bg-slate-800">
                  <input type="checkbox" checked={selected.includes(value)} onChange={() => toggle(value)} />
                  <span className="truncate">{describe(value)}</span>
                </label>
              </li>
            ))}
          </ul>
          <div className="mt-2 flex justify-between border-t border-slate-200 pt-2 dark:border-slate-700">
            <button type="button" className="text-sm text-indigo-700 hover:underline dark:text-indigo-300" onClick={() => onChange([])}>
              Clear
            </button>
            <button type="button" className="text-sm font-medium" onClick={() => (setOpen(false), button.current?.focus())}>
              Done
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
