"use client";

import { useEffect, useState } from "react";
import { ApiRequestError } from "@/client/queries/api-client";
import { useCloneAttempt, useCloneCampaign, useDismissCloneAttempt } from "@/client/queries/campaign-clone";
import { useEnrichedAssets } from "@/client/queries/enrich";
import { useKeyRefusal, useRefreshKeyRefusals } from "@/client/queries/key-refusals";
import { useStoreProfile } from "@/client/queries/store";
import { cloneFormFieldOf, type CloneCampaignRequest, type CloneFormValues } from "@/shared/schemas/campaign-clone";
import { interpretCurrency, interpretTimeZone, type TimeZoneReading } from "@/shared/store-locale";
import { epochMsToZonedLocal } from "@/shared/time-zone";
import { Card } from "@/components/ui/card";
import { ErrorPanel } from "@/components/ui/error-panel";
import { KeyRefusalNote } from "@/components/ui/key-refusal-note";
import { Skeleton } from "@/components/ui/states";
import { CloneAttemptView } from "./clone-attempt-view";
import { useCloneDraft } from "./clone-draft";
import { DuplicateWarning, useDuplicateGuard } from "./clone-duplicates";
import { CloneFailure, issuesOf } from "./clone-failure";
import { CloneForm, type FieldErrors } from "./clone-form";
import type { SourceLookup } from "./clone-fields";
import { useCloneSuggestions } from "./clone-suggestions";
import { CloneReview } from "./clone-review";
import type { SourceBudgets } from "@/shared/campaign-budget";
import { DAY_MS } from "@/shared/days";

function initialValues(currency: string, zone: TimeZoneReading): CloneFormValues {
  const tomorrow = epochMsToZonedLocal(Date.now() + DAY_MS, zone.zone).slice(0, 10);
  return {
    adAccountId: "",
    sourceCampaignGroupId: "",
    name: "",
    startDelivering: false,
    confirmation: "",
    start: `${tomorrow}T09:00`,
    end: "",
    budget: "",
    // A store currency that is not a currency code is not offered: the user enters the ad account's.
    currencyCode: interpretCurrency(currency).code ?? "",
    zoneConfirmed: false,
  };
}

/** The value, once it has stopped changing for `delayMs`: one lookup per pause in typing, not per key. */
function useSettledValue(value: string, delayMs: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

export function CloneCampaign({ storeUrl, organizationId }: { storeUrl: string; organizationId?: string }) {
  const profile = useStoreProfile(storeUrl, organizationId);
  const attempt = useCloneAttempt(storeUrl, organizationId);
  const { refusal, isPending: refusalPending } = useKeyRefusal("campaign-group.clone", storeUrl, organizationId);
  return (
    <div className="space-y-6">
      <div>
        <h2 className="text-xl font-semibold">Clone a campaign group</h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          Copies a LinkedIn campaign group of a connected ad account. Nothing is sent before you review it.
        </p>
      </div>
      {refusal && <KeyRefusalNote refusal={refusal} what="Cloning campaign groups" />}
      {profile.isPending || attempt.isPending || refusalPending ? (
        <Card>
          <Skeleton lines={6} label="Loading the store's currency and time zone, and whether this key may clone" />
        </Card>
      ) : profile.isError || attempt.isError ? (
        <ErrorPanel error={profile.error ?? attempt.error} onRetry={() => void (profile.isError ? profile.refetch() : attempt.refetch())} />
      ) : (
        <CloneWorkflow
          storeUrl={storeUrl}
          organizationId={organizationId}
          currency={profile.data.currency}
          zone={interpretTimeZone(profile.data.timezone)}
          refused={refusal !== undefined}
        />
      )}
    </div>
  );
}

function CloneWorkflow({
  storeUrl,
  organizationId,
  currency,
  zone,
  refused,
}: {
  storeUrl: string;
  organizationId?: string;
  currency: string;
  zone: TimeZoneReading;
  /** This key was refused clones: no form is offered for a clone that would be refused. */
  refused: boolean;
}) {
  const clone = useCloneCampaign(storeUrl, organizationId);
  const kept = useCloneAttempt(storeUrl, organizationId).data;
  const dismiss = useDismissCloneAttempt(storeUrl, organizationId);
  const refreshRefusals = useRefreshKeyRefusals();
  const { draft, setDraft, clear } = useCloneDraft(storeUrl, () => ({ values: initialValues(currency, zone), nameEdited: false }));
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});
  const suggestions = useCloneSuggestions(storeUrl, organizationId);

  // The attempt kept on the server is taken up: its next try keeps its key, unless it has ended.
  const { resume } = clone;
  useEffect(() => {
    if (kept && !clone.attempt) resume(kept.request, kept.idempotencyKey, kept.status === "succeeded" || kept.status === "failed");
  }, [kept, clone.attempt, resume]);

  const sourceId = useSettledValue(draft.values.sourceCampaignGroupId.trim(), 400);
  const enriched = useEnrichedAssets(storeUrl, "linkedin", sourceId ? [sourceId] : [], organizationId);
  const sourceAsset = enriched.data?.assets.find((asset) => asset.assetId === sourceId);
  const lookup: SourceLookup = !sourceId
    ? { state: "idle" }
    : sourceAsset
      ? { state: "found", asset: sourceAsset }
      : enriched.isError
        ? { state: "failed" }
        : enriched.isPending || sourceId !== draft.values.sourceCampaignGroupId.trim()
          ? { state: "loading" }
          : { state: "not-found" };
  // Until the user writes a name, it follows the resolved source.
  const formValues = draft.nameEdited || !sourceAsset ? draft.values : { ...draft.values, name: `Copy of ${sourceAsset.assetName}` };

  function change(update: Partial<CloneFormValues>) {
    setDraft((current) => ({ ...current, nameEdited: current.nameEdited || "name" in update, values: { ...current.values, ...update } }));
    setServerErrors((current) => Object.fromEntries(Object.entries(current).filter(([field]) => !(field in update))));
  }

  /** `fresh`: a new intended clone (after a lost answer, or one like it already made), never a retry of the last one. */
  function send(request: CloneCampaignRequest, fresh = false) {
    clone.run(request, {
      fresh,
      then: {
        onError: (error) => {
          // Remembered for this key from now on: the page says so before the next try.
          if (error instanceof ApiRequestError && error.status === 403) refreshRefusals();
          if (!(error instanceof ApiRequestError) || error.status !== 400) return;
          const fieldErrors: FieldErrors = {};
          for (const issue of issuesOf(error.details)) {
            const field = cloneFormFieldOf(issue.path);
            if (field) fieldErrors[field] ??= issue.message;
          }
          // Errors that belong to fields are shown next to them, in the form: the refused attempt is done with.
          if (Object.keys(fieldErrors).length > 0) {
            setServerErrors(fieldErrors);
            setDraft((current) => ({ ...current, review: undefined }));
            dismiss.mutate();
          }
        },
      },
    });
  }

  function startOver() {
    dismiss.mutate();
    clone.reset();
    clear();
    setServerErrors({});
  }

  if (kept) {
    return (
      <CloneAttemptView
        attempt={kept}
        storeUrl={storeUrl}
        organizationId={organizationId}
        currency={currency}
        zone={zone}
        sourceName={sourceAsset?.assetName}
        pending={clone.isPending}
        liveError={clone.error}
        onSend={send}
        onCloneAnother={startOver}
        onEdit={() => {
          setDraft((current) => ({ ...current, review: undefined }));
          dismiss.mutate();
        }}
      />
    );
  }
  if (draft.review) {
    return (
      <DraftReview
        request={draft.review}
        storeUrl={storeUrl}
        organizationId={organizationId}
        sourceName={sourceAsset?.assetName}
        sourceBudgets={sourceAsset}
        zone={zone}
        pending={clone.isPending}
        error={clone.error}
        onBack={() => setDraft((current) => ({ ...current, review: undefined }))}
        onSend={send}
      />
    );
  }
  if (refused) return null;
  return (
    <Card boundary={{ name: "The clone form", resetKey: enriched.data }}>
      <div className="space-y-5">
        {clone.error !== null && <CloneFailure error={clone.error} />}
        <CloneForm
          values={formValues}
          onChange={change}
          serverErrors={serverErrors}
          source={lookup}
          zone={zone}
          storeCurrency={currency}
          suggestions={suggestions}
          onSubmit={(request) => {
            clone.reset();
            setDraft((current) => ({ ...current, review: request }));
          }}
        />
      </div>
    </Card>
  );
}

/** The review of a clone not yet sent, with the check for the same clone made recently. */
function DraftReview(props: {
  request: CloneCampaignRequest;
  storeUrl: string;
  organizationId?: string;
  sourceName?: string;
  sourceBudgets?: SourceBudgets;
  zone: TimeZoneReading;
  pending: boolean;
  error: unknown;
  onBack: () => void;
  onSend: (request: CloneCampaignRequest, fresh?: boolean) => void;
}) {
  const guard = useDuplicateGuard(props.storeUrl, props.request, props.organizationId);
  return (
    <CloneReview
      request={props.request}
      sourceName={props.sourceName}
      sourceBudgets={props.sourceBudgets}
      zone={props.zone}
      pending={props.pending}
      blocked={guard.blocking}
      notice={<DuplicateWarning guard={guard} zone={props.zone} />}
      failure={props.error !== null && <CloneFailure error={props.error} onRetry={() => props.onSend(props.request)} />}
      onBack={props.onBack}
      onConfirm={() => props.onSend(props.request, guard.fresh)}
    />
  );
}
