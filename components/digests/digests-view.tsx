"use client";

import Link from "next/link";
import { useState } from "react";
import { useDigestActions, useDigests } from "@/client/queries/digests";
import { useGrants } from "@/client/queries/grants";
import { formatDateTime } from "@/shared/format";
import type { DigestItem } from "@/shared/schemas/digest";
import { Badge, Card } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { ErrorPanel } from "@/components/ui/error-panel";
import { EmptyState, Skeleton } from "@/components/ui/states";
import { DigestForm, WEEKDAYS } from "./digest-form";
import { DigestEdit } from "./digest-edit";
import { GrantsCard } from "./grants-card";

function when(digest: DigestItem): string {
  const day = digest.cadence === "weekly" ? `Every ${WEEKDAYS[(digest.weekday ?? 1) - 1]}` : "Every day";
  return `${day} at ${digest.localTime} (${digest.timeZone})`;
}

/** A scheduled digest: what it shows, when and to whom, Send now, Change and Delete (a digest of several stores is kept under `storeUrl`). */
export function DigestRow({ digest, storeUrl, organizationId }: { digest: DigestItem; storeUrl: string; organizationId?: string }) {
  const { remove, sendNow } = useDigestActions(storeUrl, organizationId);
  const [editing, setEditing] = useState(false);
  const suffix = organizationId ? `?organizationId=${encodeURIComponent(organizationId)}` : "";
  return (
    <li className="space-y-2 py-3">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 text-sm">
          <p className="font-medium break-words">
            {digest.viewName} {!digest.grantActive && <Badge tone="warn">Stopped: its grant has ended</Badge>}
            {digest.viewDeleted && <Badge tone="warn">Stopped: its saved view was deleted</Badge>}
          </p>
          {digest.portfolio && (
            <p className="break-words text-slate-600 dark:text-slate-400">
              Stores: {digest.portfolio.stores.join(", ")}
              {digest.portfolio.withoutGrant.length > 0 &&
                ` · left out, without a grant in force: ${digest.portfolio.withoutGrant.join(", ")}`}
            </p>
          )}
          <p className="break-words text-slate-600 dark:text-slate-400" data-testid="digest-shows">
            Shows: {digest.shows}
          </p>
          <p className="text-slate-600 dark:text-slate-400">
            {when(digest)} · next <time dateTime={digest.nextRunAt}>{formatDateTime(digest.nextRunAt, digest.timeZone)}</time>
          </p>
          <p className="break-words text-slate-600 dark:text-slate-400">
            To{" "}
            {digest.recipients.map((recipient, index) => (
              <span key={recipient.email}>
                {index > 0 && ", "}
                {recipient.unsubscribed ? <s aria-label={`${recipient.email} (unsubscribed)`}>{recipient.email}</s> : recipient.email}
              </span>
            ))}{" "}
            · scheduled by {digest.createdByEmail}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            variant="secondary"
            aria-expanded={editing}
            onClick={() => setEditing(!editing)}
            aria-label={`Change the digest “${digest.viewName}”`}
          >
            Change
          </Button>
          <Button
            variant="secondary"
            disabled={sendNow.isPending || !digest.grantActive || digest.viewDeleted}
            onClick={() => sendNow.mutate(digest.id)}
            aria-label={`Send “${digest.viewName}” now`}
          >
            Send now
          </Button>
          <Button
            variant="danger"
            disabled={remove.isPending}
            onClick={() => remove.mutate(digest.id)}
            aria-label={`Delete the digest “${digest.viewName}”`}
          >
            Delete
          </Button>
        </div>
      </div>
      {editing && <DigestEdit digest={digest} storeUrl={storeUrl} organizationId={organizationId} onDone={() => setEditing(false)} />}
      <p role="status" className="text-sm text-slate-600 dark:text-slate-400">
        {sendNow.isSuccess && (
          <>
            Queued: it is sent within seconds. It shows: {sendNow.data.shows} See the{" "}
            <Link className="text-indigo-700 underline dark:text-indigo-300" href={`/outbox${suffix}`}>
              Outbox
            </Link>{" "}
            or{" "}
            <Link className="text-indigo-700 underline dark:text-indigo-300" href={`/runs${suffix}`}>
              Runs and deliveries
            </Link>
            .
          </>
        )}
      </p>
      {(sendNow.isError || remove.isError) && <ErrorPanel error={sendNow.error ?? remove.error} />}
    </li>
  );
}

/** The store's digests: consent first, then the schedule form and the scheduled digests. */
export function DigestsView({ storeUrl, organizationId }: { storeUrl: string; organizationId?: string }) {
  const digests = useDigests(storeUrl, organizationId);
  const grants = useGrants(storeUrl, organizationId);
  const canSchedule = Boolean(
    grants.data?.grants.some((grant) => grant.mine && !grant.endedReason && new Date(grant.expiresAt) > new Date()),
  );
  return (
    <div className="space-y-6">
      <GrantsCard storeUrl={storeUrl} organizationId={organizationId} />
      <Card title="Schedule a digest">
        <DigestForm storeUrl={storeUrl} organizationId={organizationId} canSchedule={canSchedule} />
      </Card>
      <Card title="Scheduled digests">
        {digests.isPending && <Skeleton lines={2} label="Loading digests" />}
        {digests.isError && <ErrorPanel error={digests.error} onRetry={() => digests.refetch()} />}
        {digests.data?.digests.length === 0 && <EmptyState title="No digests yet">Schedule a saved view above.</EmptyState>}
        {digests.data && digests.data.digests.length > 0 && (
          <ul aria-label="Scheduled digests" className="divide-y divide-slate-200 dark:divide-slate-800">
            {digests.data.digests.map((digest) => (
              <DigestRow key={digest.id} digest={digest} storeUrl={storeUrl} organizationId={organizationId} />
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
