"use client";

import { useRouter } from "next/navigation";
import { useAlertRule, useAlertRuleActions } from "@/client/queries/alerts";
import { Button } from "@/components/ui/button";
import { Card, DescriptionList } from "@/components/ui/card";
import { ErrorPanel } from "@/components/ui/error-panel";
import { Skeleton } from "@/components/ui/states";
import { deletedViewWords } from "@/shared/paused-rule";
import { draftOf } from "./rule-draft";
import { RuleForm } from "./rule-form";
import { RuleEpisodes, RuleHeading } from "./rule-episodes";
import { useStoreProfile } from "@/client/queries/store";

/** One rule: its form (with the backtest), its webhook secret, and deletion. */
export function AlertRulePage({ storeUrl, id, organizationId }: { storeUrl: string; id: string; organizationId?: string }) {
  const rule = useAlertRule(storeUrl, id, organizationId);
  const currency = useStoreProfile(storeUrl, organizationId).data?.currency ?? null;
  const actions = useAlertRuleActions(storeUrl, organizationId);
  const router = useRouter();
  const list = `/stores/${encodeURIComponent(storeUrl)}/alerts${organizationId ? `?organizationId=${encodeURIComponent(organizationId)}` : ""}`;
  if (rule.isPending) return <Skeleton label="Loading the rule" />;
  if (rule.isError) return <ErrorPanel error={rule.error} onRetry={() => void rule.refetch()} />;
  const { webhookSecret, standardWebhookSecret } = rule.data;
  const { deletedViewName } = rule.data;
  return (
    <div className="space-y-6">
      <RuleHeading rule={rule.data} />
      <RuleEpisodes rule={rule.data} storeUrl={storeUrl} currency={currency} organizationId={organizationId} />
      {deletedViewName !== null && (
        <p
          role="status"
          className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200"
          data-testid="rule-paused"
        >
          {deletedViewWords(deletedViewName)}{" "}
          {webhookSecret === null
            ? `${rule.data.createdByEmail}, whose grant it runs through, may choose another saved view or the whole store.`
            : "Choose another saved view, or the whole store, below and save to resume it."}
        </p>
      )}
      <RuleForm
        storeUrl={storeUrl}
        organizationId={organizationId}
        initial={draftOf(rule.data)}
        submitLabel="Save changes"
        pending={actions.update.isPending}
        error={actions.update.error}
        onSubmit={(input) => actions.update.mutate({ id, input }, { onSuccess: () => router.push(list) })}
      />
      <Card title="Webhook signature">
        <DescriptionList
          items={[
            {
              label: "Signing secret",
              value:
                webhookSecret === null ? (
                  `Shown to ${rule.data.createdByEmail} only, whose grant this rule runs through.`
                ) : (
                  <code className="font-mono text-xs break-all">{webhookSecret}</code>
                ),
            },
            {
              label: "For your developer: how to check a message came from this dashboard",
              value: 'HMAC-SHA256 of "<X-Dashboard-Timestamp>.<raw body>" with this secret, hex, equals X-Dashboard-Signature after "v1=".',
            },
            ...(standardWebhookSecret === null
              ? []
              : [
                  {
                    label: "Standard Webhooks secret",
                    value: <code className="font-mono text-xs break-all">{standardWebhookSecret}</code>,
                  },
                  {
                    label: "With a Standard Webhooks library",
                    value: "Give it this secret: it checks the webhook-id, webhook-timestamp and webhook-signature headers.",
                  },
                ]),
          ]}
        />
      </Card>
      <Button
        variant="danger"
        disabled={actions.remove.isPending}
        onClick={() => actions.remove.mutate(id, { onSuccess: () => router.push(list) })}
      >
        Delete this rule
      </Button>
      {actions.remove.isError && <ErrorPanel error={actions.remove.error} />}
    </div>
  );
}
