"use client";

import { useState } from "react";
import { useRuns } from "@/client/queries/runs";
import { formatDateTime } from "@/shared/format";
import { StoreTime, useStoreTimeZone } from "@/components/ui/times";
import type { DeliveryItem, RunItem } from "@/shared/schemas/runs";
import { Badge, Card } from "@/components/ui/card";
import { ErrorPanel } from "@/components/ui/error-panel";
import { EmptyState, Skeleton } from "@/components/ui/states";
import { StoreFilter, storeName } from "@/components/ui/store-filter";
import { AwaitingDecision } from "./awaiting-decision";

const RUN_STATES: Record<RunItem["state"], { label: string; tone: "neutral" | "good" | "warn" | "bad" | "info" }> = {
  queued: { label: "Queued", tone: "neutral" },
  running: { label: "Running", tone: "info" },
  done: { label: "Done", tone: "good" },
  dead: { label: "Stopped", tone: "bad" },
};

export const OUTCOMES: Record<DeliveryItem["outcome"], { label: string; tone: "neutral" | "good" | "warn" | "bad" | "info" }> = {
  sending: { label: "Sending", tone: "info" },
  sent: { label: "Sent", tone: "good" },
  not_sent: { label: "Not sent", tone: "bad" },
  unknown: { label: "Unknown: check the mailbox", tone: "warn" },
};

const JOB_NAMES: Record<string, string> = { "digest.send": "Digest", "delivery.resend": "Send again" };

/** What the owner of an `unknown` message decided, as the deliveries list says it. */
function DecisionWords({ decision, storeUrl }: { decision: NonNullable<DeliveryItem["decision"]>; storeUrl: string }) {
  const when = formatDateTime(decision.at, useStoreTimeZone(storeUrl));
  return decision.kind === "send_again" ? `Sent again by ${decision.by} on ${when}` : `Marked as arrived by ${decision.by} on ${when}`;
}

const cell = "px-3 py-2 text-left align-top";

/** The recent background runs and deliveries of the stores this session reaches, with their outcome: "why didn't I get my digest". */
export function RunsView({ organizationId }: { organizationId?: string }) {
  const [store, setStore] = useState<string>();
  const runs = useRuns(organizationId, store);
  return (
    <div className="space-y-6">
      <header>
        <h1 className="text-xl font-semibold">Runs and deliveries</h1>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Background work of your stores: each run with its attempts, and each message with its outcome. A message whose outcome is unknown
          (sent, but no answer came back) is never sent again by itself: its owner decides, under “Needs a decision”.
        </p>
      </header>
      <StoreFilter id="runs-store" stores={runs.data?.stores} value={store} onChange={setStore} />
      {runs.data && <AwaitingDecision items={runs.data.awaitingDecision} stores={runs.data.stores} organizationId={organizationId} />}
      <Card title="Recent runs">
        {runs.isPending && <Skeleton lines={3} label="Loading runs" />}
        {runs.isError && <ErrorPanel error={runs.error} onRetry={() => runs.refetch()} />}
        {runs.data?.runs.length === 0 && <EmptyState title="No runs yet">Scheduled digests and Send now appear here.</EmptyState>}
        {runs.data && runs.data.runs.length > 0 && (
          // Scrolls sideways on a phone: focusable and named, so a keyboard can scroll it too.
          <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Recent runs (scrolls sideways)">
            <table className="cards-on-phone min-w-full text-sm">
              <caption className="sr-only">Recent runs</caption>
              <thead>
                <tr className="border-b border-slate-200 dark:border-slate-800">
                  <th scope="col" className={cell}>
                    Run
                  </th>
                  <th scope="col" className={cell}>
                    Store
                  </th>
                  <th scope="col" className={cell}>
                    Outcome
                  </th>
                  <th scope="col" className={cell}>
                    Tries
                  </th>
                  <th scope="col" className={cell}>
                    Started
                  </th>
                  <th scope="col" className={cell}>
                    Detail
                  </th>
                </tr>
              </thead>
              <tbody>
                {runs.data.runs.map((run) => (
                  <tr key={run.id} className="border-b border-slate-100 dark:border-slate-800">
                    <th scope="row" className={`${cell} font-medium`}>
                      {JOB_NAMES[run.name] ?? run.name} #{run.id}
                    </th>
                    <td data-label="Store" className={`${cell} break-words`}>
                      <bdi>{storeName(runs.data.stores, run.storeUrl)}</bdi>
                    </td>
                    <td data-label="Outcome" className={cell}>
                      <Badge tone={RUN_STATES[run.state].tone}>{RUN_STATES[run.state].label}</Badge>
                    </td>
                    <td data-label="Tries" className={cell}>
                      {run.attempts} of at most {run.maxAttempts}
                    </td>
                    <td data-label="Started" className={cell}>
                      {run.startedAt ? <StoreTime at={run.startedAt} storeUrl={run.storeUrl} organizationId={organizationId} /> : "—"}
                    </td>
                    <td data-label="Detail" className={`${cell} break-words`}>
                      {run.detail ?? ""}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
      <Card title="Recent deliveries">
        {runs.data?.deliveries.length === 0 && <EmptyState title="No deliveries yet" />}
        {runs.data && runs.data.deliveries.length > 0 && (
          <ul aria-label="Recent deliveries" className="divide-y divide-slate-200 dark:divide-slate-800">
            {runs.data.deliveries.map((delivery) => (
              <li key={delivery.key} className="py-3 text-sm">
                <p className="font-medium break-words">
                  {delivery.subject} <Badge tone={OUTCOMES[delivery.outcome].tone}>{OUTCOMES[delivery.outcome].label}</Badge>
                </p>
                <p className="break-words text-slate-600 dark:text-slate-400">
                  <bdi>{storeName(runs.data.stores, delivery.storeUrl)}</bdi> · To {delivery.recipient} ·{" "}
                  {delivery.channel === "outbox" ? "Outbox" : "SMTP"} ·{" "}
                  <StoreTime at={delivery.updatedAt} storeUrl={delivery.storeUrl} organizationId={organizationId} />
                  {delivery.detail ? ` · ${delivery.detail}` : ""}
                </p>
                {delivery.decision && (
                  <p className="break-words">
                    <DecisionWords decision={delivery.decision} storeUrl={delivery.storeUrl} />
                  </p>
                )}
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
