"use client";

import { useState, type FormEvent } from "react";
import { useNoteActions } from "@/client/queries/annotations";
import { formatDate, formatDateTime } from "@/shared/format";
import type { Annotations } from "@/shared/schemas/annotation";
import type { Note } from "@/shared/schemas/note";
import { Button } from "@/components/ui/button";
import { ErrorPanel } from "@/components/ui/error-panel";
import { activityHref, localDate } from "./chart-markers";

const day = (date: string) => formatDate(`${date}T12:00:00Z`, "UTC");
const span = (startDate: string, endDate: string) => (startDate === endDate ? day(startDate) : `${day(startDate)} – ${day(endDate)}`);
const fieldClass = "rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-900";
const labelClass = "block text-xs font-medium text-slate-600 dark:text-slate-400";

/** A note's dates and text; the end date may stay empty for a single day. */
function NoteForm({
  initial,
  defaultDate,
  submitLabel,
  pending,
  onSubmit,
  onCancel,
}: {
  initial?: Note;
  defaultDate: string;
  submitLabel: string;
  pending: boolean;
  onSubmit: (note: { startDate: string; endDate: string; text: string }) => void;
  onCancel?: () => void;
}) {
  const [startDate, setStartDate] = useState(initial?.startDate ?? defaultDate);
  const [endDate, setEndDate] = useState(initial && initial.endDate !== initial.startDate ? initial.endDate : "");
  const [text, setText] = useState(initial?.text ?? "");
  const id = initial?.id ?? "new";
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit({ startDate, endDate: endDate || startDate, text });
  };
  return (
    <form
      method="post"
      onSubmit={submit}
      className="flex flex-wrap items-end gap-2"
      aria-label={initial ? "Change the note" : "Add a note"}
    >
      <div>
        <label htmlFor={`note-from-${id}`} className={labelClass}>
          Date
        </label>
        <input
          id={`note-from-${id}`}
          type="date"
          required
          value={startDate}
          onChange={(e) => setStartDate(e.target.value)}
          className={fieldClass}
        />
      </div>
      <div>
        <label htmlFor={`note-to-${id}`} className={labelClass}>
          Until (optional)
        </label>
        <input
          id={`note-to-${id}`}
          type="date"
          min={startDate}
          value={endDate}
          onChange={(e) => setEndDate(e.target.value)}
          className={fieldClass}
        />
      </div>
      <div className="min-w-48 flex-1">
        <label htmlFor={`note-text-${id}`} className={labelClass}>
          Note
        </label>
        <input
          id={`note-text-${id}`}
          required
          maxLength={280}
          value={text}
          onChange={(e) => setText(e.target.value)}
          className={`${fieldClass} w-full`}
          placeholder="Newsletter sent, price change, stock-out…"
        />
      </div>
      <Button type="submit" variant="secondary" disabled={pending}>
        {submitLabel}
      </Button>
      {onCancel && (
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      )}
    </form>
  );
}

/** The notes and actions of the range, under the time chart; notes are added here and changed by their author. */
export function AnnotationsPanel({
  storeUrl,
  organizationId,
  annotations,
  zone,
  defaultDate,
}: {
  storeUrl: string;
  organizationId?: string;
  annotations: Annotations;
  zone: string;
  defaultDate: string;
}) {
  const actions = useNoteActions(storeUrl, organizationId);
  const [editing, setEditing] = useState<string>();
  const failure = actions.add.error ?? actions.change.error ?? actions.remove.error;
  const empty = annotations.notes.length === 0 && annotations.actions.length === 0;
  return (
    <section aria-labelledby="annotations-title" className="space-y-3" data-testid="annotations">
      <h3 id="annotations-title" className="text-sm font-semibold">
        Notes and actions in this range
      </h3>
      {empty && <p className="text-sm text-slate-600 dark:text-slate-400">No notes or actions in this range.</p>}
      <ul className="space-y-2 text-sm">
        {annotations.actions.map((action) => (
          <li key={action.id} className="flex flex-wrap gap-x-2 break-words">
            <span className="font-medium whitespace-nowrap">{day(localDate(action.at, zone))}</span>
            <bdi>{action.label}</bdi>
            <span className="text-slate-600 dark:text-slate-400">
              by <span className="break-all">{action.userEmail}</span>
              {action.outcome === "unknown" ? " (outcome unknown)" : ""}
            </span>
            <a href={activityHref(action.id)} className="text-indigo-700 underline dark:text-indigo-300">
              Activity entry
            </a>
          </li>
        ))}
        {annotations.notes.map((note) =>
          editing === note.id ? (
            <li key={note.id}>
              <NoteForm
                initial={note}
                defaultDate={defaultDate}
                submitLabel="Save the note"
                pending={actions.change.isPending}
                onSubmit={(changed) => actions.change.mutate({ id: note.id, note: changed }, { onSuccess: () => setEditing(undefined) })}
                onCancel={() => setEditing(undefined)}
              />
            </li>
          ) : (
            <li key={note.id} className="flex flex-wrap items-baseline gap-x-2 break-words" data-testid="note">
              <span className="font-medium whitespace-nowrap">{span(note.startDate, note.endDate)}</span>
              <bdi>{note.text}</bdi>
              <span className="text-slate-600 dark:text-slate-400">
                by <span className="break-all">{note.authorEmail}</span>, {formatDateTime(note.updatedAt, zone)}
              </span>
              {note.authorEmail.toLowerCase() === annotations.viewerEmail.toLowerCase() && (
                <span className="flex gap-1">
                  <Button
                    variant="ghost"
                    className="px-2 py-0.5"
                    onClick={() => setEditing(note.id)}
                    aria-label={`Change the note “${note.text}”`}
                  >
                    Change
                  </Button>
                  <Button
                    variant="ghost"
                    className="px-2 py-0.5"
                    disabled={actions.remove.isPending}
                    onClick={() => actions.remove.mutate(note.id)}
                    aria-label={`Delete the note “${note.text}”`}
                  >
                    Delete
                  </Button>
                </span>
              )}
            </li>
          ),
        )}
      </ul>
      <NoteForm
        key={annotations.notes.length}
        defaultDate={defaultDate}
        submitLabel="Add the note"
        pending={actions.add.isPending}
        onSubmit={(note) => actions.add.mutate(note)}
      />
      {failure && <ErrorPanel error={failure} />}
    </section>
  );
}
