import "server-only";
import type { AuditAction, AuditTarget } from "@/shared/schemas/activity";

type ActionErrorCode = "bad_request" | "idempotency_conflict" | "idempotency_in_progress" | "outcome_unknown";

/** A guarded action refused or stopped by the engine; the caller turns it into an answer with this status and code. */
export class ActionError extends Error {
  constructor(
    readonly status: 400 | 409 | 502 | 504,
    readonly code: ActionErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "ActionError";
  }
}

/** Sent, and no readable answer came (502/504 now, 409 on a retry of the same key). `target` names what to check before cloning again. */
export class OutcomeUnknown extends ActionError {
  constructor(
    status: 409 | 502 | 504,
    readonly action: AuditAction,
    readonly auditId: string | null,
    readonly target: AuditTarget,
    options?: { cause?: unknown },
  ) {
    super(status, "outcome_unknown", outcomeUnknownMessage(action, target), options);
    this.name = "OutcomeUnknown";
  }

  get retrySafe(): boolean {
    return this.action === "tracking-connection.remove";
  }
}

function outcomeUnknownMessage(action: AuditAction, target: AuditTarget): string {
  if (action === "tracking-connection.remove") {
    return `The analytics service's answer was lost: the tracking connection "${target.connectionName ?? target.connectionId}" may or may not be removed. Trying again is safe.`;
  }
  const source = target.sourceCampaignGroupName ?? target.sourceCampaignGroupId;
  const account = target.adAccountName ? `${target.adAccountName} (${target.adAccountId})` : target.adAccountId;
  return (
    `The analytics service's answer was lost: the clone "${target.newGroupName}" of campaign group "${source}" may or may not exist. ` +
    `Check ad account ${account} in LinkedIn Campaign Manager before cloning again.`
  );
}
