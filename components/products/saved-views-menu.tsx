"use client";

import Link from "next/link";
import { useEffect, useId, useState, type FormEvent } from "react";
import { YourTime } from "@/components/ui/times";
import { ApiRequestError } from "@/client/queries/api-client";
import { useSavedViewActions, useSavedViews } from "@/client/queries/saved-views";
import { savedViewNameSchema, type SavedViewItem } from "@/shared/schemas/saved-view";
import { Button } from "@/components/ui/button";
import { ErrorPanel } from "@/components/ui/error-panel";
import { Skeleton } from "@/components/ui/states";
import { Breakable } from "@/components/ui/breakable";

const UNDO_MS = 10_000;

interface SavedViewsMenuProps {
  storeUrl: string;
  organizationId?: string;
  /** The current view's canonical query, as the page writes it in its URL. */
  currentSearch: string;
  pathname: string;
}

function NameForm({
  label,
  initial,
  submitLabel,
  onSubmit,
  pending,
  error,
}: {
  label: string;
  initial: string;
  submitLabel: string;
  onSubmit: (name: string) => void;
  pending: boolean;
  error?: unknown;
}) {
  const id = useId();
  const [name, setName] = useState(initial);
  const [problem, setProblem] = useState<string>();
  const serverProblem = error instanceof ApiRequestError ? error.message : undefined;
  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = savedViewNameSchema.safeParse(name);
    if (!parsed.success) return setProblem(parsed.error.issues[0]?.message);
    setProblem(undefined);
    onSubmit(parsed.data);
  }
  const shown = problem ?? serverProblem;
  return (
    <form method="post" onSubmit={submit} noValidate className="flex flex-wrap items-end gap-2">
      <div className="min-w-0 flex-1">
        <label htmlFor={id} className="block text-sm font-medium">
          {label}
        </label>
        <input
          id={id}
          value={name}
          onChange={(event) => setName(event.target.value)}
          maxLength={120}
          aria-invalid={shown ? true : undefined}
          aria-describedby={shown ? `${id}-problem` : undefined}
          className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-950"
        />
      </div>
      <Button type="submit" disabled={pending}>
        {pending ? "Saving…" : submitLabel}
      </Button>
      {shown && (
        <p id={`${id}-problem`} className="w-full text-sm text-rose-700 dark:text-rose-400">
          {shown}
        </p>
      )}
    </form>
  );
}

function ViewRow({
  view,
  href,
  onOpen,
  onRename,
  onDelete,
  busy,
}: {
  view: SavedViewItem;
  href: string;
  onOpen: () => void;
  onRename: (name: string) => void;
  onDelete: () => void;
  busy: boolean;
}) {
  const [renaming, setRenaming] = useState(false);
  return (
    <li className="py-2">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <Link href={href} onClick={onOpen} className="font-medium break-words text-indigo-700 hover:underline dark:text-indigo-300">
            {view.name}
          </Link>
          <p className="text-xs text-slate-500 dark:text-slate-400">
            <Breakable text={view.createdByEmail} /> · <YourTime at={view.createdAt} />
          </p>
        </div>
        <div className="flex gap-1">
          <Button variant="ghost" onClick={() => setRenaming((open) => !open)} aria-expanded={renaming} aria-label={`Rename ${view.name}`}>
            Rename
          </Button>
          <Button variant="ghost" onClick={onDelete} disabled={busy} aria-label={`Delete ${view.name}`}>
            Delete
          </Button>
        </div>
      </div>
      {renaming && (
        <div className="mt-2">
          <NameForm
            label={`New name for ${view.name}`}
            initial={view.name}
            submitLabel="Rename"
            pending={busy}
            onSubmit={(name) => {
              onRename(name);
              setRenaming(false);
            }}
          />
        </div>
      )}
    </li>
  );
}

/**
 * The organization's saved views of this store: save the view on screen under a name, open
 * one (its link is shareable like any view), rename, delete with ten seconds to undo.
 */
export function SavedViewsMenu({ storeUrl, organizationId, currentSearch, pathname }: SavedViewsMenuProps) {
  const [open, setOpen] = useState(false);
  const [deleted, setDeleted] = useState<SavedViewItem>();
  const panelId = useId();
  const views = useSavedViews(storeUrl, organizationId);
  const actions = useSavedViewActions(storeUrl, organizationId);

  useEffect(() => {
    if (!deleted) return;
    const timer = setTimeout(() => setDeleted(undefined), UNDO_MS);
    return () => clearTimeout(timer);
  }, [deleted]);

  const hrefOf = (view: SavedViewItem) => {
    const params = new URLSearchParams(view.search);
    if (organizationId) params.set("organizationId", organizationId);
    const query = params.toString();
    return query ? `${pathname}?${query}` : pathname;
  };
  const count = views.data?.views.length;

  return (
    <div className="relative" onKeyDown={(event) => event.key === "Escape" && setOpen(false)}>
      <Button variant="secondary" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen((value) => !value)}>
        Saved views{count ? ` (${count})` : ""}
      </Button>
      {open && (
        <section
          id={panelId}
          aria-label="Saved views"
          className="absolute right-0 z-20 mt-2 w-[min(28rem,calc(100vw-2rem))] space-y-3 rounded-xl border border-slate-200 bg-white p-4 shadow-lg dark:border-slate-700 dark:bg-slate-900"
        >
          <NameForm
            label="Save this view as"
            initial=""
            submitLabel="Save view"
            pending={actions.save.isPending}
            error={actions.save.error}
            onSubmit={(name) => actions.save.mutate({ name, search: currentSearch })}
          />
          <div role="status" aria-live="polite" className="space-y-2">
            {actions.save.isSuccess && !deleted && (
              <p className="text-sm text-emerald-700 dark:text-emerald-400">Saved “{actions.save.data.name}”.</p>
            )}
            {deleted && (
              <p className="flex flex-wrap items-center gap-2 text-sm">
                Deleted “{deleted.name}”.
                <Button
                  variant="secondary"
                  onClick={() => actions.restore.mutate(deleted.id, { onSuccess: () => setDeleted(undefined) })}
                  disabled={actions.restore.isPending}
                >
                  Undo
                </Button>
              </p>
            )}
            {actions.restore.isError && <ErrorPanel error={actions.restore.error} />}
          </div>
          {views.isPending && <Skeleton lines={2} label="Loading saved views" />}
          {views.isError && <ErrorPanel error={views.error} onRetry={() => views.refetch()} />}
          {views.data && views.data.views.length === 0 && (
            <p className="text-sm text-slate-600 dark:text-slate-400">No saved views of this store yet.</p>
          )}
          {views.data && views.data.views.length > 0 && (
            <ul className="max-h-80 divide-y divide-slate-200 overflow-y-auto dark:divide-slate-800">
              {views.data.views.map((view) => (
                <ViewRow
                  key={view.id}
                  view={view}
                  href={hrefOf(view)}
                  onOpen={() => setOpen(false)}
                  busy={actions.remove.isPending || actions.rename.isPending}
                  onRename={(name) => actions.rename.mutate({ id: view.id, name })}
                  onDelete={() => actions.remove.mutate(view.id, { onSuccess: ({ view: gone }) => setDeleted(gone) })}
                />
              ))}
            </ul>
          )}
          {actions.rename.isError && <ErrorPanel error={actions.rename.error} />}
          {actions.remove.isError && <ErrorPanel error={actions.remove.error} />}
        </section>
      )}
    </div>
  );
}
