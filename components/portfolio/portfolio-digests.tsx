"use client";

import Link from "next/link";
import { useId, useState, type FormEvent } from "react";
import { useCreatePortfolioDigest, usePortfolioDigests } from "@/client/queries/digests";
import { presetLabels } from "@/shared/metrics/date-range";
import { portfolioSearch, type PortfolioState } from "@/shared/portfolio";
import { newPortfolioDigestSchema } from "@/shared/schemas/digest";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ErrorPanel } from "@/components/ui/error-panel";
import { Skeleton } from "@/components/ui/states";
import { DigestRow } from "@/components/digests/digests-view";
import { FormProblems, ScheduleFields, scheduleOf } from "@/components/digests/digest-form";

/** The table by e-mail: the chosen stores, this page's range and comparison, through the grants of those stores. */
export function PortfolioDigests({ stores, search }: { stores: string[]; search: PortfolioState }) {
  const digests = usePortfolioDigests();
  const create = useCreatePortfolioDigest();
  const [problem, setProblem] = useState<string>();
  const id = useId();
  const granted = new Set(digests.data?.granted ?? []);
  const range = search.range === "custom" ? `${search.from} to ${search.to}` : presetLabels[search.range];
  const against = search.compare === "year" ? "the same weekdays a year earlier" : "the previous period";

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const input = { stores: data.getAll("stores").map(String), search: portfolioSearch(search), ...scheduleOf(data) };
    const parsed = newPortfolioDigestSchema.safeParse(input);
    if (!parsed.success) return setProblem(parsed.error.issues[0]?.message);
    setProblem(undefined);
    create.mutate(parsed.data);
  }

  return (
    <Card title="Digest of these stores">
      <p className="mb-4 text-sm text-slate-600 dark:text-slate-400">
        This table by e-mail, daily or weekly: {range} in each store&apos;s own time zone, compared with {against}. Each store is read
        through your grant for it (given on its Digests page); a store without a grant in force is left out, and the digest names it.
      </p>
      <form method="post" onSubmit={submit} className="grid gap-4 sm:grid-cols-2" aria-describedby={problem ? `${id}-problem` : undefined}>
        <fieldset className="sm:col-span-2">
          <legend className="text-sm font-medium">Stores</legend>
          {stores.map((url) => (
            <label key={url} className="mt-1 flex flex-wrap items-center gap-2 text-sm">
              <input type="checkbox" name="stores" value={url} defaultChecked />
              <span className="break-all">{url}</span>
              {digests.data && !granted.has(url) && (
                <Link
                  href={`/stores/${encodeURIComponent(url)}/digests`}
                  className="text-xs text-indigo-700 underline dark:text-indigo-300"
                >
                  No grant: left out until you grant access
                </Link>
              )}
            </label>
          ))}
        </fieldset>
        <ScheduleFields id={id} zone="the first granted store's time zone" />
        <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
          <Button type="submit" disabled={create.isPending}>
            Schedule digest of these stores
          </Button>
          <p role="status" className="text-sm text-slate-600 dark:text-slate-400">
            {create.isSuccess && `Scheduled the digest of ${create.data.portfolio?.stores.length} stores.`}
          </p>
        </div>
        <FormProblems id={id} problem={problem} error={create.isError ? create.error : undefined} />
      </form>
      {digests.isPending && <Skeleton lines={2} label="Loading digests" />}
      {digests.isError && <ErrorPanel error={digests.error} onRetry={() => digests.refetch()} />}
      {digests.data && digests.data.digests.length > 0 && (
        <ul aria-label="Digests of several stores" className="mt-4 divide-y divide-slate-200 dark:divide-slate-800">
          {digests.data.digests.map((digest) => (
            <DigestRow key={digest.id} digest={digest} storeUrl={digest.portfolio!.storeUrl} />
          ))}
        </ul>
      )}
    </Card>
  );
}
