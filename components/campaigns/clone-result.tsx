import Link from "next/link";
import { formatCurrency, formatDateTime } from "@/shared/format";
import { activityEntryHref } from "@/client/queries/activity";
import type { CloneCampaignResponse } from "@/shared/schemas/campaign-clone";
import { enumLabel } from "@/shared/store-locale";
import { fieldLabel, statusWords } from "@/shared/words";
import { Badge, Card, DescriptionList } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { GenericValue } from "@/components/ui/generic-value";
import { Breakable } from "@/components/ui/breakable";

interface CloneResultProps {
  response: CloneCampaignResponse;
  currency: string;
  /** The store's time zone: the step results' instants are shown in it. */
  timeZone?: string;
  requestId?: string;
  replayed: boolean;
  /** The clone's entry in the Activity list. */
  auditId?: string;
  onCloneAnother: () => void;
}

/** Steps the upstream is known to report, in words; any other is named from its own words. */
const STEP_WORDS: Record<string, string> = {
  "copy-campaign-group": "Copied the campaign group",
  "set-status": "Set its status",
  "set-budget": "Set its budget",
  "set-schedule": "Set its schedule",
};

/** One step in words: what was done and whether it worked, its figures behind "Details". */
function StepResult({ result, timeZone }: { result: unknown; timeZone?: string }) {
  const record = result !== null && typeof result === "object" && !Array.isArray(result) ? (result as Record<string, unknown>) : null;
  const step = typeof record?.step === "string" ? record.step : null;
  if (!record || !step) {
    return (
      <li className="rounded-lg border border-slate-200 p-3 dark:border-slate-800">
        <GenericValue value={result} timeZone={timeZone} />
      </li>
    );
  }
  const ok = record.ok;
  const rest = Object.fromEntries(Object.entries(record).filter(([key]) => key !== "step" && key !== "ok"));
  return (
    <li className="rounded-lg border border-slate-200 p-3 dark:border-slate-800">
      <p className="flex flex-wrap items-center gap-2 text-sm font-medium">
        {STEP_WORDS[step] ?? fieldLabel(step)}
        {typeof ok === "boolean" && <Badge tone={ok ? "good" : "bad"}>{ok ? "Done" : "Failed"}</Badge>}
      </p>
      {Object.keys(rest).length > 0 && (
        <details className="mt-2 text-sm">
          <summary className="cursor-pointer">Details</summary>
          <GenericValue value={rest} timeZone={timeZone} />
        </details>
      )}
    </li>
  );
}

/** The cloned asset as the upstream describes it, and its raw step results. */
export function CloneResult({ response, currency, timeZone, requestId, replayed, auditId, onCloneAnother }: CloneResultProps) {
  const { asset } = response;
  const code = (value: string) => (
    <code className="font-mono text-xs">
      <Breakable text={value} />
    </code>
  );
  return (
    <div className="space-y-6">
      <div
        role="status"
        className="rounded-lg border border-emerald-200 bg-emerald-50 p-4 text-sm text-emerald-950 dark:border-emerald-900 dark:bg-emerald-950/40 dark:text-emerald-100"
      >
        <p>
          Cloned as “{asset.name}” ({asset.status}).
          {replayed && " This request had already run: this is its first result, nothing was cloned twice."}
        </p>
        {requestId && (
          <p className="mt-1 text-xs">
            Reference for support:{" "}
            <code className="select-all font-mono" data-testid="request-id">
              {requestId}
            </code>
          </p>
        )}
        {auditId && (
          <p className="mt-1 text-xs">
            <Link href={activityEntryHref(auditId)} className="font-medium underline">
              See it in Activity
            </Link>
          </p>
        )}
      </div>
      <Card
        boundary={{ name: "The cloned campaign group", requestId, resetKey: response }}
        title="Cloned campaign group"
        actions={
          <Button variant="secondary" onClick={onCloneAnother}>
            Clone another campaign group
          </Button>
        }
      >
        <DescriptionList
          items={[
            { label: "Name", value: asset.name },
            {
              label: "Status",
              value: <Badge tone={asset.status === "ACTIVE" ? "warn" : "neutral"}>{statusWords(enumLabel(asset.status))}</Badge>,
            },
            { label: "Effective status", value: <Badge>{statusWords(enumLabel(asset.effectiveStatus))}</Badge> },
            { label: "Daily budget", value: formatCurrency(asset.dailyBudget, currency) },
            { label: "Lifetime budget", value: formatCurrency(asset.lifetimeBudget, currency) },
            {
              label: "What this dashboard can change on it",
              value: (
                <span className="flex flex-wrap gap-1">
                  {asset.supportedWrites.length === 0
                    ? "none"
                    : asset.supportedWrites.map((write) => <Badge key={write}>{fieldLabel(write)}</Badge>)}
                </span>
              ),
            },
            { label: "Asset ID", value: code(asset.assetId) },
            { label: "Ad account ID", value: code(asset.adAccountId) },
            { label: "Parent asset ID", value: code(asset.parentAssetId) },
            { label: "LinkedIn's reference for it", value: code(asset.key) },
            { label: "Platform and type", value: `${asset.platform}, ${asset.assetType}` },
            { label: "Updated", value: formatDateTime(asset.updatedAt, timeZone) },
          ]}
        />
      </Card>
      <Card title="Results of each step" boundary={{ name: "The step results", requestId, resetKey: response }}>
        {response.results.length === 0 ? (
          <p className="text-sm text-slate-500 dark:text-slate-400">The upstream reported no steps.</p>
        ) : (
          <ol className="space-y-3" aria-label="Results of each step">
            {response.results.map((result, index) => (
              <StepResult key={index} result={result} timeZone={timeZone} />
            ))}
          </ol>
        )}
      </Card>
    </div>
  );
}
