"use client";

import { useId, useState, type FormEvent } from "react";
import { useDigestActions } from "@/client/queries/digests";
import { useSavedViews } from "@/client/queries/saved-views";
import { newDigestSchema } from "@/shared/schemas/digest";
import { Button } from "@/components/ui/button";
import { ErrorPanel } from "@/components/ui/error-panel";

export const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

const field = "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-900";

/** When and to whom, as a form posts it. */
export function scheduleOf(data: FormData) {
  const cadence = String(data.get("cadence"));
  return {
    cadence,
    weekday: cadence === "weekly" ? Number(data.get("weekday")) : undefined,
    localTime: String(data.get("localTime") ?? ""),
    recipients: String(data.get("recipients") ?? "")
      .split(/[\s,;]+/)
      .filter(Boolean),
  };
}

/** How often, which weekday, what time (in `zone`) and to whom: the fields every digest form has. */
export function ScheduleFields({
  id,
  zone,
  initial,
}: {
  id: string;
  zone: string;
  /** A scheduled digest's own values, when it is being changed. */
  initial?: { cadence: string; weekday: number | null; localTime: string; recipients: string[] };
}) {
  return (
    <>
      <div>
        <label htmlFor={`${id}-cadence`} className="text-sm font-medium">
          How often
        </label>
        <select id={`${id}-cadence`} name="cadence" className={field} defaultValue={initial?.cadence ?? "daily"}>
          <option value="daily">Every day</option>
          <option value="weekly">Every week</option>
        </select>
      </div>
      <div>
        <label htmlFor={`${id}-weekday`} className="text-sm font-medium">
          Weekday (weekly digests)
        </label>
        <select id={`${id}-weekday`} name="weekday" className={field} defaultValue={String(initial?.weekday ?? 1)}>
          {WEEKDAYS.map((day, index) => (
            <option key={day} value={index + 1}>
              {day}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${id}-time`} className="text-sm font-medium">
          Time, in {zone}
        </label>
        <input id={`${id}-time`} name="localTime" type="time" className={field} defaultValue={initial?.localTime ?? "08:00"} required />
      </div>
      <div className="sm:col-span-2">
        <label htmlFor={`${id}-recipients`} className="text-sm font-medium">
          Recipients (e-mail addresses, separated by commas or new lines)
        </label>
        <textarea
          id={`${id}-recipients`}
          name="recipients"
          rows={2}
          className={field}
          required
          defaultValue={initial?.recipients.join(", ")}
        />
      </div>
    </>
  );
}

/** A form's problem found before sending (`${id}-problem`, which the form is described by), or the server's refusal. */
export function FormProblems({ id, problem, error }: { id: string; problem?: string; error?: unknown }) {
  return (
    <>
      {problem && (
        <p id={`${id}-problem`} role="alert" className="text-sm font-medium text-rose-700 sm:col-span-2 dark:text-rose-300">
          {problem}
        </p>
      )}
      {error !== undefined && (
        <div className="sm:col-span-2">
          <ErrorPanel error={error} />
        </div>
      )}
    </>
  );
}

/** Schedules a saved view: daily or weekly, at a time in the store's zone, to a list of addresses. */
export function DigestForm({ storeUrl, organizationId, canSchedule }: { storeUrl: string; organizationId?: string; canSchedule: boolean }) {
  const views = useSavedViews(storeUrl, organizationId);
  const { create } = useDigestActions(storeUrl, organizationId);
  const [problem, setProblem] = useState<string>();
  const id = useId();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const parsed = newDigestSchema.safeParse({ savedViewId: String(data.get("savedViewId") ?? ""), ...scheduleOf(data) });
    if (!parsed.success) return setProblem(parsed.error.issues[0]?.message);
    setProblem(undefined);
    const form = event.currentTarget;
    create.mutate(parsed.data, { onSuccess: () => form.reset() });
  }

  const noViews = views.data?.views.length === 0;
  return (
    <form method="post" onSubmit={submit} className="grid gap-4 sm:grid-cols-2" aria-describedby={problem ? `${id}-problem` : undefined}>
      <div>
        <label htmlFor={`${id}-view`} className="text-sm font-medium">
          Saved view
        </label>
        <select id={`${id}-view`} name="savedViewId" className={field} required disabled={!views.data || noViews}>
          {views.data?.views.map((view) => (
            <option key={view.id} value={view.id}>
              {view.name}
            </option>
          ))}
        </select>
        {noViews && <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">Save a view on the Product metrics page first.</p>}
      </div>
      <ScheduleFields id={id} zone="the store's time zone" />
      <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
        <Button type="submit" disabled={!canSchedule || create.isPending || noViews}>
          Schedule digest
        </Button>
        {!canSchedule && <p className="text-sm text-slate-600 dark:text-slate-400">Grant read access above to schedule digests.</p>}
        <p role="status" className="text-sm text-slate-600 dark:text-slate-400">
          {create.isSuccess && `Scheduled “${create.data.viewName}”.`}
        </p>
      </div>
      <FormProblems id={id} problem={problem} error={create.isError ? create.error : undefined} />
    </form>
  );
}
