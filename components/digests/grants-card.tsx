"use client";

import { useId, useState } from "react";
import { useGrantActions, useGrants } from "@/client/queries/grants";
import { YourTime } from "@/components/ui/times";
import type { GrantItem } from "@/shared/schemas/grant";
import { Badge, Card } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { ErrorPanel } from "@/components/ui/error-panel";
import { Skeleton } from "@/components/ui/states";

const ENDED: Record<NonNullable<GrantItem["endedReason"]>, string> = {
  revoked: "Revoked",
  upstream_refused: "Ended: the key was refused",
  expired: "Expired",
  undecryptable: "Ended: its sealed key failed its check",
};

function GrantRow({ grant, onRevoke, pending }: { grant: GrantItem; onRevoke: () => void; pending: boolean }) {
  const active = !grant.endedReason && new Date(grant.expiresAt) > new Date();
  return (
    <li className="flex flex-wrap items-start justify-between gap-3 py-3">
      <div className="min-w-0 text-sm">
        <p className="font-medium break-words">
          {grant.ownerEmail} {grant.mine && <Badge tone="info">Yours</Badge>}{" "}
          {active ? (
            <Badge tone="good">In force</Badge>
          ) : (
            <Badge tone="warn">{grant.endedReason ? ENDED[grant.endedReason] : "Expired"}</Badge>
          )}
        </p>
        <p className="text-slate-600 dark:text-slate-400">
          Granted <YourTime at={grant.createdAt} /> · last used {grant.lastUsedAt ? <YourTime at={grant.lastUsedAt} /> : "never"} ·{" "}
          {active ? "expires" : "ended"} <YourTime at={grant.endedAt ?? grant.expiresAt} />
        </p>
        <p className="text-slate-600 dark:text-slate-400">
          {grant.dependents === 0
            ? "No digest or alert rule depends on it."
            : `${grant.dependents} ${grant.dependents === 1 ? "digest or alert rule depends" : "digests and alert rules depend"} on it.`}
        </p>
      </div>
      {grant.mine && active && (
        <Button variant="danger" onClick={onRevoke} disabled={pending} aria-label={`Revoke the grant of ${grant.ownerEmail}`}>
          Revoke
        </Button>
      )}
    </li>
  );
}

/** The owner's explicit consent to unattended reads of this store, the grants made, and revocation. */
export function GrantsCard({ storeUrl, organizationId }: { storeUrl: string; organizationId?: string }) {
  const grants = useGrants(storeUrl, organizationId);
  const actions = useGrantActions(storeUrl, organizationId);
  const [consent, setConsent] = useState(false);
  const consentId = useId();
  const mine = grants.data?.grants.find((grant) => grant.mine && !grant.endedReason && new Date(grant.expiresAt) > new Date());

  return (
    <Card title="Access while you're away">
      {grants.isPending && <Skeleton lines={2} label="Loading grants" />}
      {grants.isError && <ErrorPanel error={grants.error} onRetry={() => grants.refetch()} />}
      {grants.data && (
        <div className="space-y-4">
          <p className="text-sm text-slate-700 dark:text-slate-300">
            Digests and alert rules are read while nobody is signed in, so they need your consent. A grant lets the dashboard use your API
            key for <strong>reads only</strong> of this store: its context, store data, product metrics, dimensions and names. It can never
            remove a tracking connection or clone a campaign. The key is kept encrypted; signing out does not end a grant, revoking it does,
            and every digest and alert rule that depends on it stops.
          </p>
          {grants.data.notices.map((notice) => (
            <p
              key={notice.id}
              role="alert"
              className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100"
            >
              {notice.message}
            </p>
          ))}
          {!grants.data.enabled && (
            <p className="text-sm font-medium">Unattended reads are off on this dashboard: its operator has not set DELEGATION_KEY.</p>
          )}
          {grants.data.enabled && !mine && (
            <div className="space-y-3">
              <div className="flex items-start gap-2">
                <input
                  id={consentId}
                  type="checkbox"
                  className="mt-1 size-4"
                  checked={consent}
                  onChange={(event) => setConsent(event.target.checked)}
                />
                <label htmlFor={consentId} className="text-sm">
                  Let this dashboard read this store&apos;s analytics for my digests and alerts
                </label>
              </div>
              <Button
                disabled={!consent || actions.grant.isPending}
                onClick={() => actions.grant.mutate(undefined, { onSuccess: () => setConsent(false) })}
              >
                Grant read access
              </Button>
              {actions.grant.isError && <ErrorPanel error={actions.grant.error} />}
            </div>
          )}
          {grants.data.grants.length > 0 && (
            <ul aria-label="Grants" className="divide-y divide-slate-200 dark:divide-slate-800">
              {grants.data.grants.map((grant) => (
                <GrantRow
                  key={grant.id}
                  grant={grant}
                  pending={actions.revoke.isPending}
                  onRevoke={() => actions.revoke.mutate(grant.id)}
                />
              ))}
            </ul>
          )}
          {actions.revoke.isError && <ErrorPanel error={actions.revoke.error} />}
        </div>
      )}
    </Card>
  );
}
