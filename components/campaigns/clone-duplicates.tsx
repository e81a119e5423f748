"use client";

import Link from "next/link";
import { useState } from "react";
import { formatDateTime } from "@/shared/format";
import { activityEntryHref } from "@/client/queries/activity";
import { useCloneDuplicates } from "@/client/queries/campaign-clone";
import type { CloneCampaignRequest } from "@/shared/schemas/campaign-clone";
import type { TimeZoneReading } from "@/shared/store-locale";
import { Breakable } from "@/components/ui/breakable";

/**
 * Before a clone is sent: the same clone (ad account, source group and name) made, or left
 * unknown, in the organization in the last 24 hours. Sending anyway needs an explicit
 * confirmation, and goes out as a new action (a new Idempotency-Key).
 */
export function useDuplicateGuard(storeUrl: string, request: CloneCampaignRequest, organizationId?: string) {
  const duplicates = useCloneDuplicates(storeUrl, request, organizationId);
  const [confirmed, setConfirmed] = useState(false);
  const found = duplicates.data?.duplicates ?? [];
  return {
    found,
    confirmed,
    setConfirmed,
    /** Sending waits for the check, and for the confirmation when it found something. */
    blocking: duplicates.isPending || (found.length > 0 && !confirmed),
    /** The user chose to send a clone like one already made: a new action, with a new key. */
    fresh: found.length > 0 && confirmed,
  };
}

export function DuplicateWarning({ guard, zone }: { guard: ReturnType<typeof useDuplicateGuard>; zone: TimeZoneReading }) {
  if (guard.found.length === 0) return null;
  return (
    <div
      role="alert"
      className="space-y-2 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100"
    >
      <p className="font-semibold">This clone may already exist.</p>
      <ul className="list-inside list-disc space-y-1">
        {guard.found.map((duplicate) => (
          <li key={duplicate.auditId}>
            {duplicate.outcome === "succeeded" ? "Cloned" : "Sent without a readable answer (it may exist)"} by{" "}
            <Breakable text={duplicate.userEmail} /> on {formatDateTime(duplicate.at, zone.zone)}.{" "}
            <Link href={activityEntryHref(duplicate.auditId)} className="font-medium underline">
              See it in Activity
            </Link>
          </li>
        ))}
      </ul>
      <label className="flex items-start gap-2">
        <input
          type="checkbox"
          checked={guard.confirmed}
          onChange={(event) => guard.setConfirmed(event.target.checked)}
          className="mt-0.5 h-4 w-4 rounded border-amber-400"
        />
        <span>Clone again anyway: I have checked, and want another campaign group with this name.</span>
      </label>
    </div>
  );
}
