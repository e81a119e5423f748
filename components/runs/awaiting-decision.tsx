"use client";

import { useDeliveryDecision } from "@/client/queries/runs";
import { formatDateTime } from "@/shared/format";
import { useStoreTimeZone } from "@/components/ui/times";
import type { AwaitingItem } from "@/shared/schemas/runs";
import type { ReachStoreItem } from "@/shared/schemas/reach";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ErrorPanel } from "@/components/ui/error-panel";
import { storeName } from "@/components/ui/store-filter";

const SENT_BY = { digest: "A digest", alert: "An alert e-mail" } as const;

/** One `unknown` message: what is known, what to check, and the owner's two decisions. */
function AwaitingMessage({ item, stores, organizationId }: { item: AwaitingItem; stores: ReachStoreItem[]; organizationId?: string }) {
  const decision = useDeliveryDecision(organizationId);
  const sentAt = formatDateTime(item.createdAt, useStoreTimeZone(item.storeUrl, organizationId));
  const press = (kind: "send_again" | "arrived") => decision.run({ storeUrl: item.storeUrl, key: item.key, decision: kind });
  return (
    <li className="space-y-2 py-3 text-sm" aria-label={`${item.subject} to ${item.recipient}`}>
      <p className="font-medium break-words">{item.subject}</p>
      <p className="break-words text-slate-600 dark:text-slate-400">
        {item.sentBy ? `${SENT_BY[item.sentBy]} of ` : ""}
        <bdi>{storeName(stores, item.storeUrl)}</bdi> · To {item.recipient} · Sent <time dateTime={item.createdAt}>{sentAt}</time>
      </p>
      <p className="break-words">
        {item.known}
        {item.detail ? (
          <span className="text-slate-600 dark:text-slate-400"> (The mail server&apos;s last words: {item.detail})</span>
        ) : null}
      </p>
      <p className="break-words">
        Before deciding, ask {item.recipient} whether it arrived, or look for it in the mail server&apos;s log (sent {sentAt}, subject “
        {item.subject}”).
      </p>
      {!item.bodyKept && (
        <p className="break-words">Its body was removed by the retention purge: it cannot be sent again, only marked as arrived.</p>
      )}
      {item.mayDecide ? (
        <div className="flex flex-wrap gap-2">
          <Button onClick={() => press("send_again")} disabled={decision.isPending || !item.bodyKept}>
            Send again
          </Button>
          <Button variant="secondary" onClick={() => press("arrived")} disabled={decision.isPending}>
            It arrived
          </Button>
        </div>
      ) : (
        <p className="break-words text-slate-600 dark:text-slate-400">
          {item.ownerEmail
            ? `Only ${item.ownerEmail} may send it again or mark it as arrived: it went out through their grant.`
            : "Its digest or alert rule was deleted: no one may send it again."}
        </p>
      )}
      {decision.error ? <ErrorPanel error={decision.error} /> : null}
    </li>
  );
}

/**
 * The `unknown` messages of the reach's stores that wait for a decision: nothing sends them again
 * by itself; the owner of the grant each went out through decides.
 */
export function AwaitingDecision({
  items,
  stores,
  organizationId,
}: {
  items: AwaitingItem[];
  stores: ReachStoreItem[];
  organizationId?: string;
}) {
  if (items.length === 0) return null;
  return (
    <Card title="Needs a decision">
      <p className="text-sm text-slate-600 dark:text-slate-400">
        These messages were handed to the mail server, but no answer came back: they may or may not have arrived, so they are not sent again
        by themselves. A message sent again goes under a new key and shows in Recent deliveries below.
      </p>
      <ul aria-label="Messages that need a decision" className="divide-y divide-slate-200 dark:divide-slate-800">
        {items.map((item) => (
          <AwaitingMessage key={item.key} item={item} stores={stores} organizationId={organizationId} />
        ))}
      </ul>
    </Card>
  );
}
