"use client";

import Link from "next/link";
import { useState } from "react";
import { z } from "zod";
import { ApiRequestError } from "@/client/queries/api-client";
import { activityEntryHref } from "@/client/queries/activity";
import { auditTargetSchema } from "@/shared/schemas/activity";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";

/** The `details` of an `outcome_unknown` answer: the entry to look at, and what to check. */
const outcomeUnknownDetailsSchema = z.object({
  auditId: z.string().nullable().optional(),
  target: auditTargetSchema.partial().optional(),
  retrySafe: z.boolean().optional(),
});

type OutcomeUnknownDetails = z.infer<typeof outcomeUnknownDetailsSchema>;

/** The details when the clone's answer was lost (now, or on an earlier try with the same key); undefined otherwise. */
function lostCloneOf(error: unknown): { error: ApiRequestError; details: OutcomeUnknownDetails } | undefined {
  if (!(error instanceof ApiRequestError) || error.code !== "outcome_unknown") return undefined;
  const details = outcomeUnknownDetailsSchema.safeParse(error.details);
  return { error, details: details.success ? details.data : {} };
}

/**
 * A clone spends money, so a lost answer is not retried with the same key (that would be
 * refused as `outcome_unknown` again): the page says what to check in LinkedIn Campaign
 * Manager, and cloning again needs the new name typed, and goes out with a new key.
 */
export function CloneOutcomeUnknown({
  error,
  newName,
  adAccountId,
  pending,
  onCloneAgain,
}: {
  error: ApiRequestError;
  newName: string;
  adAccountId: string;
  pending: boolean;
  onCloneAgain: () => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const details = lostCloneOf(error)?.details ?? {};
  const target = details.target ?? {};
  const source = target.sourceCampaignGroupName
    ? `“${target.sourceCampaignGroupName}” (${target.sourceCampaignGroupId})`
    : target.sourceCampaignGroupId;
  const accountId = target.adAccountId ?? adAccountId;
  const account = target.adAccountName ? `${target.adAccountName} (${accountId})` : accountId;
  return (
    <div
      role="alert"
      className="space-y-2 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100"
    >
      <p className="font-semibold">The answer was lost: the clone may or may not exist.</p>
      <p>
        The request reached the analytics service, but its answer did not come back
        {error.status === 409 ? " (on an earlier try of this same request)" : ""}. Before cloning again, check ad account{" "}
        <strong className="break-words">{account}</strong> in LinkedIn Campaign Manager for a campaign group named{" "}
        <strong className="break-words">“{target.newGroupName ?? newName}”</strong>
        {source && <> copied from campaign group {source}</>}.
      </p>
      <p className="text-xs">
        {error.requestId && (
          <>
            Reference for support:{" "}
            <code className="select-all font-mono" data-testid="request-id">
              {error.requestId}
            </code>{" "}
          </>
        )}
        {details.auditId && (
          <Link href={activityEntryHref(details.auditId)} className="font-medium underline">
            See it in Activity
          </Link>
        )}
      </p>
      <Button variant="danger" onClick={() => setConfirming(true)} disabled={pending}>
        {pending ? "Cloning…" : "Clone again anyway"}
      </Button>
      <ConfirmDialog
        open={confirming}
        title="Clone again anyway"
        confirmText={newName}
        confirmLabel="Clone again anyway"
        pendingLabel="Cloning…"
        pending={pending}
        onConfirm={() => {
          setConfirming(false);
          onCloneAgain();
        }}
        onClose={() => setConfirming(false)}
      >
        <p>
          If the first clone does exist, this makes a second campaign group named <strong>“{newName}”</strong> in ad account {account}, and
          both may spend.
        </p>
        <p>This is sent as a new request: the dashboard cannot tell it apart from a new clone.</p>
      </ConfirmDialog>
    </div>
  );
}
