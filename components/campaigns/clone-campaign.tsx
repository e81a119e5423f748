"use client";

import { useEffect, useState } from "react";
import { ApiRequestError } from "@/lib/queries/api-client";
import { newIdempotencyKey, type ActionResult } from "@/lib/queries/activity";
import { useCloneCampaign } from "@/lib/queries/campaign-clone";
import { useEnrichedAssets } from "@/lib/queries/enrich";
import { useKeyRefusal, useRefreshKeyRefusals } from "@/lib/queries/key-refusals";
import { useStoreProfile } from "@/lib/queries/store";
import {
  cloneFormFieldOf,
  type CloneCampaignRequest,
  type CloneCampaignResponse,
  type CloneFormValues,
} from "@/lib/schemas/campaign-clone";
import { interpretCurrency, interpretTimeZone, type TimeZoneReading } from "@/lib/store-locale";
import { epochMsToZonedLocal } from "@/lib/time-zone";
import { Card } from "@/components/ui/card";
import { ErrorPanel } from "@/components/ui/error-panel";
import { KeyRefusalNote } from "@/components/ui/key-refusal-note";
import { Skeleton } from "@/components/ui/states";
import { CloneFailure, issuesOf } from "./clone-failure";
import { CloneForm, type FieldErrors, type SourceLookup } from "./clone-form";
import { CloneResult } from "./clone-result";
import { CloneReview } from "./clone-review";
import { CloneOutcomeUnknown, lostCloneOf } from "./clone-unknown";

type Step =
  | { kind: "edit" }
  | { kind: "review"; request: CloneCampaignRequest }
  | { kind: "done"; request: CloneCampaignRequest; result: ActionResult<CloneCampaignResponse> };

const DAY_MS = 86_400_000;

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

const isDefinitiveFailure = (status: number) => status === 500 || (status >= 400 && status < 500 && status !== 409 && status !== 429);

export function CloneCampaign({ storeUrl, organizationId }: { storeUrl: string; organizationId?: string }) {
  const profile = useStoreProfile(storeUrl, organizationId);
  const { refusal } = useKeyRefusal("campaign-group.clone");
  return (
    <div className="space-y-6">
      <div>
        <h2 className="text-xl font-semibold">Clone a campaign group</h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          Copies a LinkedIn campaign group of a connected ad account. Nothing is sent before you review it.
        </p>
      </div>
      {refusal && <KeyRefusalNote refusal={refusal} what="Cloning campaign groups" />}
      {profile.isPending ? (
        <Card>
          <Skeleton lines={6} label="Loading the store's currency and time zone" />
        </Card>
      ) : profile.isError ? (
        <ErrorPanel error={profile.error} onRetry={() => profile.refetch()} />
      ) : (
        <CloneWorkflow
          storeUrl={storeUrl}
          organizationId={organizationId}
          currency={profile.data.currency}
          timeZone={profile.data.timezone}
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
  timeZone,
  refused,
}: {
  storeUrl: string;
  organizationId?: string;
  currency: string;
  timeZone: string;
  /** This key was refused clones: no form is offered for a clone that would be refused. */
  refused: boolean;
}) {
  const clone = useCloneCampaign(storeUrl, organizationId);
  const refreshRefusals = useRefreshKeyRefusals();
  const zone = interpretTimeZone(timeZone);
  const [values, setValues] = useState(() => initialValues(currency, zone));
  const [nameEdited, setNameEdited] = useState(false);
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});
  const [step, setStep] = useState<Step>({ kind: "edit" });
  // Minted when the form opens; kept while the same request is retried, renewed when it changes or succeeds.
  const [attempt, setAttempt] = useState(() => ({ idempotencyKey: newIdempotencyKey(), body: undefined as string | undefined }));

  const sourceId = useSettledValue(values.sourceCampaignGroupId.trim(), 400);
  const enriched = useEnrichedAssets(storeUrl, "linkedin", sourceId ? [sourceId] : [], organizationId);
  const sourceAsset = enriched.data?.assets.find((asset) => asset.assetId === sourceId);
  const lookup: SourceLookup = !sourceId
    ? { state: "idle" }
    : sourceAsset
      ? { state: "found", asset: sourceAsset }
      : enriched.isError
        ? { state: "failed" }
        : enriched.isPending || sourceId !== values.sourceCampaignGroupId.trim()
          ? { state: "loading" }
          : { state: "not-found" };
  // Until the user writes a name, it follows the resolved source.
  const formValues = nameEdited || !sourceAsset ? values : { ...values, name: `Copy of ${sourceAsset.assetName}` };

  function change(update: Partial<CloneFormValues>) {
    if ("name" in update) setNameEdited(true);
    setValues((current) => ({ ...current, ...update }));
    setServerErrors((current) => Object.fromEntries(Object.entries(current).filter(([field]) => !(field in update))));
  }

  /** `fresh`: a new intended clone (after a lost answer), never a retry of the last one. */
  function send(request: CloneCampaignRequest, fresh = false) {
    if (clone.isPending) return;
    const body = JSON.stringify(request);
    const same = attempt.body === undefined || attempt.body === body;
    const idempotencyKey = same && !fresh ? attempt.idempotencyKey : newIdempotencyKey();
    setAttempt({ idempotencyKey, body });
    clone.mutate(
      { request, idempotencyKey },
      {
        onSuccess: (result) => {
          setStep({ kind: "done", request, result });
          setAttempt({ idempotencyKey: newIdempotencyKey(), body: undefined });
        },
        onError: (error) => {
          // Remembered for this key from now on: the page says so before the next try.
          if (error instanceof ApiRequestError && error.status === 403) refreshRefusals();
          // A definitive answer (the upstream's 4xx or 500) ends this attempt: "Try again" is a new
          // one, with a new key. Without an answer (the connection lost, 502, 503, 504) the same key
          // is kept, so a retry replays whatever happened instead of running again.
          if (error instanceof ApiRequestError && isDefinitiveFailure(error.status)) {
            setAttempt({ idempotencyKey: newIdempotencyKey(), body: undefined });
          }
          if (!(error instanceof ApiRequestError) || error.status !== 400) return;
          const fieldErrors: FieldErrors = {};
          for (const issue of issuesOf(error.details)) {
            const field = cloneFormFieldOf(issue.path);
            if (field) fieldErrors[field] ??= issue.message;
          }
          // Errors that belong to fields are shown next to them, in the form.
          if (Object.keys(fieldErrors).length > 0) {
            setServerErrors(fieldErrors);
            setStep({ kind: "edit" });
          }
        },
      },
    );
  }

  function startOver() {
    clone.reset();
    setValues(initialValues(currency, zone));
    setNameEdited(false);
    setServerErrors({});
    setStep({ kind: "edit" });
  }

  if (step.kind === "done") {
    const { result, request } = step;
    return (
      <CloneResult
        response={result.data}
        currency={request.payload.currencyCode ?? currency}
        requestId={result.requestId}
        replayed={result.replayed}
        auditId={result.auditId}
        onCloneAnother={startOver}
      />
    );
  }
  if (step.kind === "review") {
    const lost = lostCloneOf(clone.error);
    return (
      <CloneReview
        request={step.request}
        sourceName={sourceAsset?.assetName}
        zone={zone}
        pending={clone.isPending}
        failure={
          lost ? (
            <CloneOutcomeUnknown
              error={lost.error}
              newName={step.request.payload.name}
              adAccountId={step.request.adAccountId}
              pending={clone.isPending}
              onCloneAgain={() => send(step.request, true)}
            />
          ) : (
            clone.isError && <CloneFailure error={clone.error} onRetry={() => send(step.request)} />
          )
        }
        onBack={() => setStep({ kind: "edit" })}
        onConfirm={() => send(step.request)}
      />
    );
  }
  if (refused) return null;
  return (
    <Card boundary={{ name: "The clone form", resetKey: enriched.data }}>
      <div className="space-y-5">
        {clone.isError && <CloneFailure error={clone.error} />}
        <CloneForm
          values={formValues}
          onChange={change}
          serverErrors={serverErrors}
          source={lookup}
          zone={zone}
          storeCurrency={currency}
          onSubmit={(request) => {
            clone.reset();
            setStep({ kind: "review", request });
          }}
        />
      </div>
    </Card>
  );
}
