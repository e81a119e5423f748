"use client";

import { useId, useState, type FormEvent } from "react";
import { useDigestActions } from "@/client/queries/digests";
import { digestChangeSchema, type DigestItem } from "@/shared/schemas/digest";
import { Button } from "@/components/ui/button";
import { FormProblems, ScheduleFields, scheduleOf } from "./digest-form";

/** Changes a scheduled digest's cadence, time and recipients in place (its view or stores stay); recorded in Activity. */
export function DigestEdit({
  digest,
  storeUrl,
  organizationId,
  onDone,
}: {
  digest: DigestItem;
  storeUrl: string;
  organizationId?: string;
  onDone: () => void;
}) {
  const { change } = useDigestActions(storeUrl, organizationId);
  const [problem, setProblem] = useState<string>();
  const id = useId();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = digestChangeSchema.safeParse(scheduleOf(new FormData(event.currentTarget)));
    if (!parsed.success) return setProblem(parsed.error.issues[0]?.message);
    setProblem(undefined);
    change.mutate({ id: digest.id, ...parsed.data }, { onSuccess: onDone });
  }

  return (
    <form
      method="post"
      onSubmit={submit}
      aria-label={`Change the digest “${digest.viewName}”`}
      aria-describedby={problem ? `${id}-problem` : undefined}
      className="grid gap-4 rounded-lg border border-slate-200 p-3 sm:grid-cols-2 dark:border-slate-800"
    >
      <ScheduleFields
        id={id}
        zone={digest.timeZone}
        initial={{ ...digest, recipients: digest.recipients.map((recipient) => recipient.email) }}
      />
      <div className="flex flex-wrap gap-2 sm:col-span-2">
        <Button type="submit" disabled={change.isPending}>
          Save changes
        </Button>
        <Button variant="secondary" onClick={onDone}>
          Cancel
        </Button>
      </div>
      <FormProblems id={id} problem={problem} error={change.isError ? change.error : undefined} />
    </form>
  );
}
