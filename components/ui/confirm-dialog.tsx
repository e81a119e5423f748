"use client";

import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from "react";
import { Button } from "./button";

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  /** What the action does and what stops when it is done. */
  children: ReactNode;
  /** The text the user must type, exactly, before the action can run. */
  confirmText: string;
  confirmLabel: string;
  pendingLabel: string;
  pending: boolean;
  /** Shown inside the dialog, above the buttons: the dialog stays open on these errors. */
  error?: ReactNode;
  onConfirm: () => void;
  onClose: () => void;
}

/**
 * The type-to-confirm dialog of every destructive action: a native modal dialog (focus
 * trapped, Escape closes, the page behind inert), the confirm button enabled only once the
 * text matches, and disabled while the action runs.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmText,
  confirmLabel,
  pendingLabel,
  pending,
  error,
  onConfirm,
  onClose,
}: ConfirmDialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const [typed, setTyped] = useState("");
  const ids = { title: useId(), description: useId(), input: useId(), hint: useId() };
  const matches = typed.trim() === confirmText.trim();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      inputRef.current?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (matches && !pending) onConfirm();
  }

  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={ids.title}
      aria-describedby={ids.description}
      // While the action runs the dialog stays: closing it would hide how the action ended.
      onCancel={(event) => {
        if (pending) event.preventDefault();
      }}
      onClose={() => {
        setTyped("");
        if (open) onClose();
      }}
      className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-xl border border-slate-200 bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-950/60 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
    >
      {open && (
        <form method="post" onSubmit={submit} className="space-y-4 p-5">
          <h2 id={ids.title} className="text-lg font-semibold">
            {title}
          </h2>
          <div id={ids.description} className="space-y-2 text-sm text-slate-700 dark:text-slate-300">
            {children}
          </div>
          <div>
            <label htmlFor={ids.input} className="block text-sm font-medium">
              Type <span className="select-all rounded bg-slate-100 px-1 font-mono dark:bg-slate-800">{confirmText}</span> to confirm
            </label>
            <input
              ref={inputRef}
              id={ids.input}
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
              autoComplete="off"
              spellCheck={false}
              disabled={pending}
              aria-describedby={ids.hint}
              className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm disabled:opacity-60 dark:border-slate-700 dark:bg-slate-950"
            />
            <p id={ids.hint} className="mt-1 text-xs text-slate-500 dark:text-slate-400">
              {matches ? "The name matches." : "The button is enabled once the name matches exactly."}
            </p>
          </div>
          {error}
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="secondary" onClick={() => dialogRef.current?.close()} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" variant="danger" disabled={!matches || pending} aria-busy={pending || undefined}>
              {pending ? pendingLabel : confirmLabel}
            </Button>
          </div>
        </form>
      )}
    </dialog>
  );
}
