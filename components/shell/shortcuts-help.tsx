"use client";

import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";

/** Every keyboard shortcut of the dashboard, with where it works. */
const SHORTCUTS = [
  ["?", "This list", "Every page"],
  ["←", "The period before", "Product metrics"],
  ["→", "The period after (up to today)", "Product metrics"],
  ["x", "Comparison on or off", "Product metrics"],
  ["/", "Search the products", "Product metrics"],
] as const;

/** Whether a key press belongs to what the user is typing in, or to a modifier combination. */
export function typing(event: KeyboardEvent): boolean {
  const target = event.target as HTMLElement | null;
  if (event.ctrlKey || event.metaKey || event.altKey) return true;
  if (!target) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName) || target.closest("dialog[open]") !== null;
}

/**
 * The header's "?": a button (and the `?` key, anywhere but in a field) that opens the list of
 * keyboard shortcuts in a modal dialog; Escape or Close shuts it and focus returns to the button.
 */
export function ShortcutsHelp() {
  const [open, setOpen] = useState(false);
  const dialogRef = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || typing(event) || event.key !== "?") return;
      event.preventDefault();
      setOpen(true);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  useEffect(() => {
    if (open && !dialogRef.current?.open) dialogRef.current?.showModal();
  }, [open]);
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        aria-haspopup="dialog"
        aria-label="Keyboard shortcuts"
        title="Keyboard shortcuts (?)"
        className="inline-flex h-8 w-8 items-center justify-center rounded-full border border-slate-300 text-sm font-semibold text-slate-700 hover:bg-slate-50 dark:border-slate-700 dark:text-slate-200 dark:hover:bg-slate-800"
      >
        ?
      </button>
      <dialog
        ref={dialogRef}
        onClose={() => setOpen(false)}
        aria-labelledby="shortcuts-title"
        className="m-auto max-w-sm rounded-xl border border-slate-200 bg-white p-5 text-slate-900 shadow-xl backdrop:bg-slate-900/40 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
      >
        <h2 id="shortcuts-title" className="mb-3 text-base font-semibold">
          Keyboard shortcuts
        </h2>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
          {SHORTCUTS.map(([key, words, where]) => (
            <div key={key} className="contents">
              <dt>
                <kbd className="rounded border border-slate-300 px-1.5 font-mono dark:border-slate-600">{key}</kbd>
              </dt>
              <dd>
                {words} <span className="text-slate-600 dark:text-slate-400">({where})</span>
              </dd>
            </div>
          ))}
        </dl>
        <p className="mt-3 text-xs text-slate-600 dark:text-slate-400">They do nothing while you type in a field.</p>
        <form method="dialog" className="mt-4 text-right">
          <Button type="submit" variant="secondary">
            Close
          </Button>
        </form>
      </dialog>
    </>
  );
}
