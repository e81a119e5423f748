"use client";

import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";

const SHORTCUTS = [
  ["←", "The period before"],
  ["→", "The period after (up to today)"],
  ["x", "Comparison on or off"],
  ["/", "Search the products"],
  ["?", "This list"],
] as const;

/** Whether a key press belongs to what the user is typing in, or to a modifier combination. */
function typing(event: KeyboardEvent): boolean {
  const target = event.target as HTMLElement | null;
  if (event.ctrlKey || event.metaKey || event.altKey) return true;
  if (!target) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName) || target.closest("dialog[open]") !== null;
}

/** The product page's keyboard shortcuts; none fires while typing in a field. `?` opens their list. */
export function Shortcuts({ onStep, onToggleCompare }: { onStep: (direction: -1 | 1) => void; onToggleCompare: () => void }) {
  const [open, setOpen] = useState(false);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const handlers = useRef({ onStep, onToggleCompare });
  useEffect(() => {
    handlers.current = { onStep, onToggleCompare };
  });
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || typing(event)) return;
      const act = {
        ArrowLeft: () => handlers.current.onStep(-1),
        ArrowRight: () => handlers.current.onStep(1),
        x: () => handlers.current.onToggleCompare(),
        "/": () => document.getElementById("product-search")?.focus(),
        "?": () => setOpen(true),
      }[event.key];
      if (!act) return;
      event.preventDefault();
      act();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  useEffect(() => {
    if (open && !dialogRef.current?.open) dialogRef.current?.showModal();
  }, [open]);
  return (
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
        {SHORTCUTS.map(([key, words]) => (
          <div key={key} className="contents">
            <dt>
              <kbd className="rounded border border-slate-300 px-1.5 font-mono dark:border-slate-600">{key}</kbd>
            </dt>
            <dd>{words}</dd>
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
  );
}
