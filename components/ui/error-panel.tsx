"use client";

import { errorWords, plainServiceWords } from "@/shared/error-words";
import { ApiRequestError } from "@/client/queries/api-client";
import { Button } from "./button";

interface Explanation {
  title: string;
  advice: string;
}

/** Plain words for each kind of failure: what happened, and what the user can do. */
function explainError(error: unknown): Explanation & { message: string; requestId?: string } {
  if (!(error instanceof ApiRequestError)) {
    return { title: "Something went wrong", advice: "Try again.", message: error instanceof Error ? error.message : String(error) };
  }
  const base = { message: error.message, requestId: error.requestId };
  switch (true) {
    case error.code === "database_unavailable":
      return { ...base, title: "The dashboard's database is unavailable", advice: "Nothing was sent. Try again in a moment." };
    case error.code === "range_too_long":
      return { ...base, title: "This range took too long", advice: errorWords.range_too_long };
    case error.code === "payload_too_large":
      return { ...base, title: "Too much to send", advice: "Shorten what you entered and try again." };
    case error.status === 0:
      return { ...base, title: "The dashboard could not be reached", advice: "Check your connection, then try again." };
    case error.status === 401:
      return { ...base, title: "You are signed out", advice: "Sign in again to continue." };
    case error.status === 403:
      return {
        ...base,
        title: "Not allowed",
        advice:
          "Your API key is scoped to one organization and store, and may lack the permission this needs. Use a key created for this store.",
      };
    case error.status === 404:
      return { ...base, title: "Not found", advice: "It does not exist, or it belongs to a store your key cannot reach." };
    case error.status === 429:
      return { ...base, title: "Too many attempts", advice: "Wait a moment, then try again." };
    case error.status === 504:
      return {
        ...base,
        title: "The analytics service is too slow",
        advice: "It did not answer in time. Try again, or choose a shorter date range.",
      };
    case error.status >= 500:
      return {
        ...base,
        title: "The analytics service had a problem",
        advice: "Try again in a moment. If it keeps happening, give support the request ID below.",
      };
    default:
      return { ...base, title: "The request was not accepted", advice: "Check what you entered and try again." };
  }
}

/** The request id of a failure, easy to select and give to support. */
export function SupportReference({ requestId }: { requestId: string }) {
  return (
    <p className="mt-2 text-xs">
      Reference for support:{" "}
      <code className="select-all rounded bg-rose-100 px-1 py-0.5 font-mono dark:bg-rose-900/60" data-testid="request-id">
        {requestId}
      </code>
    </p>
  );
}

export function ErrorPanel({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { title, advice, message, requestId } = explainError(error);
  return (
    <div
      role="alert"
      className="rounded-lg border border-rose-200 bg-rose-50 p-4 text-rose-950 dark:border-rose-900 dark:bg-rose-950/40 dark:text-rose-100"
    >
      <p className="font-semibold">{title}</p>
      <p className="mt-1 text-sm">{plainServiceWords(message)}</p>
      <p className="mt-1 text-sm text-rose-800 dark:text-rose-200">{advice}</p>
      {requestId && <SupportReference requestId={requestId} />}
      {onRetry && (
        <Button variant="secondary" className="mt-3" onClick={onRetry}>
          Try again
        </Button>
      )}
    </div>
  );
}
