"use client";

import Link from "next/link";
import { useState } from "react";
import type { AlertRule } from "@/shared/schemas/alert";
import { formatMetric, targetLabel } from "@/shared/alert-message";
import { useStoreProfile } from "@/client/queries/store";
import { formatDateTime } from "@/shared/format";
import { useStoreTimeZone } from "@/components/ui/times";
import { useAlertRuleActions, useAlertRules } from "@/client/queries/alerts";
import { useGrants } from "@/client/queries/grants";
import { GrantsCard } from "@/components/digests/grants-card";
import { Button } from "@/components/ui/button";
import { Badge, Card } from "@/components/ui/card";
import { deletedViewWords } from "@/shared/paused-rule";
import { ErrorPanel } from "@/components/ui/error-panel";
import { EmptyState, Skeleton } from "@/components/ui/states";
import { RuleForm } from "./rule-form";

/** The rule's condition in words, a threshold in the metric's unit (the store's currency for revenue). */
const conditionText = (rule: AlertRule, currency: string | null) =>
  rule.condition.kind === "anomaly"
    ? `anomaly (${rule.condition.direction === "both" ? "falls or rises" : rule.condition.direction === "down" ? "falls" : "rises"}, ${rule.condition.sensitivity} sensitivity, minimum volume ${formatMetric(rule.metric, rule.condition.minVolume, currency)})`
    : `${rule.condition.operator} ${formatMetric(rule.metric, rule.condition.threshold, currency)}`;

function RuleRow({ rule, storeUrl, organizationId }: { rule: AlertRule; storeUrl: string; organizationId?: string }) {
  const actions = useAlertRuleActions(storeUrl, organizationId);
  const currency = useStoreProfile(storeUrl, organizationId).data?.currency ?? null;
  const { snoozed } = rule;
  const zone = useStoreTimeZone(storeUrl, organizationId);
  const suffix = organizationId ? `?organizationId=${encodeURIComponent(organizationId)}` : "";
  return (
    <li className="flex flex-wrap items-start justify-between gap-3 py-3">
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2 font-medium">
          <Link href={`/stores/${encodeURIComponent(storeUrl)}/alerts/${rule.id}${suffix}`} className="underline-offset-2 hover:underline">
            <bdi>{rule.name}</bdi>
          </Link>
          {rule.state === "firing" ? <Badge tone="bad">Firing</Badge> : <Badge tone="good">OK</Badge>}
          {rule.muted && <Badge tone="neutral">Muted</Badge>}
          {snoozed && <Badge tone="warn">Snoozed until {formatDateTime(rule.snoozedUntil!, zone)}</Badge>}
          {rule.deletedViewName !== null && <Badge tone="warn">Paused: saved view deleted</Badge>}
        </p>
        {rule.deletedViewName !== null && (
          <p className="text-sm text-amber-800 dark:text-amber-300" data-testid="rule-paused">
            {deletedViewWords(rule.deletedViewName)} Open it to choose another view or the whole store.
          </p>
        )}
        <p className="text-sm text-slate-600 dark:text-slate-400">
          {rule.metric} of {targetLabel(rule.target)}, each {rule.granularity}: {conditionText(rule, currency)}
          {rule.lastCheckedAt ? ` · checked ${formatDateTime(rule.lastCheckedAt, zone)}` : " · not checked yet"}
        </p>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="secondary"
          onClick={() => actions.mute.mutate({ id: rule.id, muted: !rule.muted })}
          disabled={actions.mute.isPending}
        >
          {rule.muted ? `Unmute` : `Mute`}
          <span className="sr-only"> {rule.name}</span>
        </Button>
        <Button
          variant="secondary"
          onClick={() => actions.snooze.mutate({ id: rule.id, minutes: snoozed ? 0 : 24 * 60 })}
          disabled={actions.snooze.isPending}
        >
          {snoozed ? "End snooze" : "Snooze 24 h"}
          <span className="sr-only"> {rule.name}</span>
        </Button>
      </div>
    </li>
  );
}

/** Whether this user's rules are checked while they are away: only through their own grant in force. */
function BackgroundChecks({ storeUrl, organizationId }: { storeUrl: string; organizationId?: string }) {
  const grants = useGrants(storeUrl, organizationId);
  if (!grants.data) return null;
  const inForce = grants.data.grants.some((grant) => grant.mine && !grant.endedReason && new Date(grant.expiresAt) > new Date());
  return (
    <p className="text-sm text-slate-600 dark:text-slate-400">
      {inForce
        ? "Your rules are also checked every five minutes while you are away, through your grant."
        : "Your rules are checked only when someone presses Check now. Grant read access under “Access while you're away” to have them checked every five minutes while you are away."}
    </p>
  );
}

/** The store's alert rules, "Check now", and a form for a new rule. */
export function AlertRules({ storeUrl, organizationId }: { storeUrl: string; organizationId?: string }) {
  const rules = useAlertRules(storeUrl, organizationId);
  const actions = useAlertRuleActions(storeUrl, organizationId);
  const [adding, setAdding] = useState(false);
  const [formKey, setFormKey] = useState(0);
  const check = actions.check;
  return (
    <div className="space-y-6">
      <Card
        title="Alert rules"
        actions={
          <div className="flex gap-2">
            <Button variant="secondary" onClick={() => check.mutate()} disabled={check.isPending || !rules.data?.rules.length}>
              {check.isPending ? "Checking…" : "Check now"}
            </Button>
            <Button onClick={() => setAdding(true)} disabled={adding}>
              New rule
            </Button>
          </div>
        }
      >
        <BackgroundChecks storeUrl={storeUrl} organizationId={organizationId} />
        <div aria-live="polite" className="text-sm">
          {check.data && (
            <p className="mb-3" role="status">
              Checked {check.data.checked} {check.data.checked === 1 ? "rule" : "rules"}: {check.data.fired} fired, {check.data.resolved}{" "}
              resolved{check.data.failed ? `, ${check.data.failed} could not be checked` : ""}.
            </p>
          )}
          {check.isError && <ErrorPanel error={check.error} />}
        </div>
        {rules.isPending ? (
          <Skeleton label="Loading the alert rules" />
        ) : rules.isError ? (
          <ErrorPanel error={rules.error} onRetry={() => void rules.refetch()} />
        ) : rules.data.rules.length === 0 ? (
          <EmptyState title="No alert rules yet">Add one to be told when revenue, orders or units move.</EmptyState>
        ) : (
          <ul className="divide-y divide-slate-100 dark:divide-slate-800">
            {rules.data.rules.map((rule) => (
              <RuleRow key={rule.id} rule={rule} storeUrl={storeUrl} organizationId={organizationId} />
            ))}
          </ul>
        )}
      </Card>
      <GrantsCard storeUrl={storeUrl} organizationId={organizationId} />
      {adding && (
        <section aria-labelledby="new-rule-title" className="space-y-4">
          <h2 id="new-rule-title" className="text-lg font-semibold">
            New alert rule
          </h2>
          <RuleForm
            key={formKey}
            storeUrl={storeUrl}
            organizationId={organizationId}
            submitLabel="Save the rule"
            pending={actions.create.isPending}
            error={actions.create.error}
            onSubmit={(rule) =>
              actions.create.mutate(rule, {
                onSuccess: () => {
                  setAdding(false);
                  setFormKey((key) => key + 1);
                },
              })
            }
          />
        </section>
      )}
    </div>
  );
}
