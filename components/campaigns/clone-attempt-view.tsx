"use client";

import { errorWords } from "@/shared/error-words";
import { formatDateTime } from "@/shared/format";
import { ApiRequestError } from "@/client/queries/api-client";
import { cloneCampaignResponseSchema, type CloneCampaignRequest } from "@/shared/schemas/campaign-clone";
import type { CloneAttempt } from "@/shared/schemas/clone-attempt";
import { dashboardErrorSchema } from "@/shared/schemas/error";
import type { TimeZoneReading } from "@/shared/store-locale";
import { Card } from "@/components/ui/card";
import { ErrorPanel } from "@/components/ui/error-panel";
import { DuplicateWarning, useDuplicateGuard } from "./clone-duplicates";
import { CloneFailure } from "./clone-failure";
import { CloneResult } from "./clone-result";
import { CloneReview } from "./clone-review";
import { CloneOutcomeUnknown } from "./clone-unknown";

interface CloneAttemptViewProps {
  attempt: CloneAttempt;
  storeUrl: string;
  organizationId?: string;
  currency: string;
  zone: TimeZoneReading;
  sourceName?: string;
  /** A try is on its way from this page. */
  pending: boolean;
  /** How this page's last try failed, when the server's record does not say (a lost connection, a refusal before sending). */
  liveError: unknown;
  onSend: (request: CloneCampaignRequest, fresh?: boolean) => void;
  onCloneAnother: () => void;
  onEdit: () => void;
}

/** The upstream's definitive refusal or failure, as kept on the server, in the shape the failure panel reads. */
function errorOfAnswer(answer: NonNullable<CloneAttempt["answer"]>): ApiRequestError {
  let parsed: ReturnType<typeof dashboardErrorSchema.safeParse> | undefined;
  try {
    parsed = dashboardErrorSchema.safeParse(JSON.parse(answer.body));
  } catch {
    // Not JSON: described by its status.
  }
  const message = parsed?.success ? parsed.data.error : `The analytics service answered with status ${answer.status}.`;
  return new ApiRequestError(
    answer.status,
    message,
    undefined,
    answer.requestId ?? undefined,
    parsed?.success ? parsed.data.details : undefined,
  );
}

/** The lost answer as the unknown-outcome panel reads it: what to check, and the Activity entry. */
const unknownOf = (attempt: CloneAttempt) =>
  new ApiRequestError(409, errorWords.outcome_unknown, "outcome_unknown", undefined, { auditId: attempt.auditId, target: attempt.target });

/**
 * The clone this session sent for the store, as the server keeps it: what a reload, a closed
 * tab or a second tab comes back to. Sending, done with its result, failed with why, unknown
 * with what to check, or kept but not yet sent (the page went away before it left).
 */
export function CloneAttemptView(props: CloneAttemptViewProps) {
  const { attempt, zone } = props;
  const sentAt = <>Sent {formatDateTime(attempt.createdAt, zone.zone)}.</>;
  if (attempt.status === "succeeded") {
    const response = cloneCampaignResponseSchema.safeParse(JSON.parse(attempt.answer?.body ?? "null"));
    if (!response.success) return <ErrorPanel error={new Error("The clone's answer, as kept, cannot be read.")} />;
    return (
      <CloneResult
        response={response.data}
        currency={attempt.request.payload.currencyCode ?? props.currency}
        timeZone={zone.zone}
        requestId={attempt.answer?.requestId ?? undefined}
        replayed={false}
        auditId={attempt.auditId ?? undefined}
        onCloneAnother={props.onCloneAnother}
      />
    );
  }
  if (attempt.status === "sending") {
    return (
      <Card title="Cloning…">
        <p role="status" className="text-sm">
          This clone is being made. {sentAt} This page follows it and shows the result as soon as the analytics service answers: there is
          nothing to send again.
        </p>
      </Card>
    );
  }
  return <ReviewOfAttempt {...props} />;
}

/** An attempt that can be sent (again): not sent yet, failed for good, or lost without an answer. */
function ReviewOfAttempt({
  attempt,
  storeUrl,
  organizationId,
  zone,
  sourceName,
  pending,
  liveError,
  onSend,
  onEdit,
}: CloneAttemptViewProps) {
  const guard = useDuplicateGuard(storeUrl, attempt.request, organizationId);
  const { request } = attempt;
  const failure =
    attempt.status === "unknown" ? (
      <CloneOutcomeUnknown
        error={unknownOf(attempt)}
        newName={request.payload.name}
        adAccountId={request.adAccountId}
        pending={pending}
        onCloneAgain={() => onSend(request, true)}
      />
    ) : attempt.status === "failed" && attempt.answer ? (
      // Trying again after a definitive failure is a new action, with a new key.
      <CloneFailure error={errorOfAnswer(attempt.answer)} onRetry={() => onSend(request, true)} />
    ) : liveError ? (
      <CloneFailure error={liveError} onRetry={() => onSend(request)} />
    ) : (
      <p role="status" className="rounded-lg border border-slate-200 p-3 text-sm dark:border-slate-800">
        This clone was kept when you pressed “Clone campaign group” ({formatDateTime(attempt.createdAt, zone.zone)}) but has not reached the
        analytics service: the page went away first. Sending it now is safe: it goes out with the same key, so it runs at most once.
      </p>
    );
  return (
    <CloneReview
      request={request}
      sourceName={sourceName}
      zone={zone}
      pending={pending}
      blocked={guard.blocking}
      // A lost answer is not sent again from here: its own panel offers "Clone again anyway".
      hideConfirm={attempt.status === "unknown"}
      notice={attempt.status !== "unknown" && <DuplicateWarning guard={guard} zone={zone} />}
      failure={failure}
      onBack={onEdit}
      // After a definitive failure, trying again is a new action, with a new key.
      onConfirm={() => onSend(request, guard.fresh || attempt.status === "failed")}
    />
  );
}
