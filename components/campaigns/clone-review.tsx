"use client";

import type { ReactNode } from "react";
import { formatDateTime } from "@/shared/format";
import { activeSpendWarning, budgetExplanation, type SourceBudgets } from "@/shared/campaign-budget";
import type { CloneCampaignRequest } from "@/shared/schemas/campaign-clone";
import type { TimeZoneReading } from "@/shared/store-locale";
import { Badge, Card, DescriptionList } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { FallbackNote } from "@/components/ui/fallback-note";

interface CloneReviewProps {
  request: CloneCampaignRequest;
  sourceName?: string;
  /** The source group's own budgets, when the lookup gave them. */
  sourceBudgets?: SourceBudgets;
  /** The store's time zone as read by `interpretTimeZone`: the times are shown where they were placed. */
  zone: TimeZoneReading;
  pending: boolean;
  /** Sending waits (for the check of recent identical clones, or its confirmation). */
  blocked?: boolean;
  /** The button that sends is not offered (a lost answer has its own way to clone again). */
  hideConfirm?: boolean;
  /** What the user should know before sending (the same clone made recently). */
  notice?: ReactNode;
  /** The failure of the last attempt, with its own words and retry. */
  failure?: ReactNode;
  onBack: () => void;
  onConfirm: () => void;
}

function when(epochMs: number | undefined, zone: TimeZoneReading) {
  if (epochMs === undefined) return <span className="text-slate-500 dark:text-slate-400">not set</span>;
  return (
    <>
      {formatDateTime(epochMs, zone.zone)} <span className="text-slate-500 dark:text-slate-400">({zone.label})</span>
    </>
  );
}

/** Shows exactly what will be sent, before anything is. */
export function CloneReview({
  request,
  sourceName,
  sourceBudgets,
  zone,
  pending,
  blocked,
  hideConfirm,
  notice,
  failure,
  onBack,
  onConfirm,
}: CloneReviewProps) {
  const { payload } = request;
  const active = payload.status === "ACTIVE";
  const currency = payload.currencyCode ?? "";
  return (
    <Card title="Review before cloning" boundary={{ name: "The review", resetKey: request }}>
      <div className="space-y-5">
        <FallbackNote text={zone.fallbackNote} />
        {active && (
          <p className="rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-900 dark:bg-amber-950/40 dark:text-amber-100">
            This clone will be <strong>ACTIVE</strong>. {activeSpendWarning(payload.budget, currency, sourceBudgets)}
          </p>
        )}
        <DescriptionList
          items={[
            { label: "Ad account ID", value: <code className="font-mono text-xs">{request.adAccountId}</code> },
            {
              label: "Source campaign group",
              value: (
                <>
                  <code className="font-mono text-xs">{payload.sourceCampaignGroupId}</code>
                  {sourceName && <span className="ml-2">{sourceName}</span>}
                </>
              ),
            },
            { label: "New name", value: payload.name },
            { label: "Status", value: <Badge tone={active ? "warn" : "neutral"}>{payload.status ?? "PAUSED"}</Badge> },
            { label: "Start", value: when(payload.startTime, zone) },
            { label: "End", value: when(payload.endTime, zone) },
            {
              label: "Budget",
              value: <span data-testid="budget-explanation">{budgetExplanation(payload.budget, currency, sourceBudgets)}</span>,
            },
            { label: "Currency", value: payload.currencyCode ?? "the ad account's" },
          ]}
        />
        <div>
          <h3 className="text-sm font-medium">Exactly what will be sent</h3>
          {/* Focusable: on a phone the body scrolls sideways, and a keyboard must be able to scroll it. */}
          <pre
            tabIndex={0}
            role="region"
            aria-label="Request body"
            className="mt-2 overflow-x-auto rounded-lg bg-slate-100 p-3 font-mono text-xs dark:bg-slate-950"
          >
            {JSON.stringify(request, null, 2)}
          </pre>
        </div>
        {notice}
        {failure}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={onBack} disabled={pending}>
            Back to edit
          </Button>
          {!hideConfirm && (
            <Button
              variant={active ? "danger" : "primary"}
              onClick={onConfirm}
              disabled={pending || blocked}
              aria-busy={pending || undefined}
            >
              {pending ? "Cloning…" : active ? "Clone and start delivering" : "Clone campaign group"}
            </Button>
          )}
        </div>
      </div>
    </Card>
  );
}
