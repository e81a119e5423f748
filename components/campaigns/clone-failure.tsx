"use client";

import { ApiRequestError } from "@/client/queries/api-client";
import { ErrorPanel } from "@/components/ui/error-panel";
import { GenericValue } from "@/components/ui/generic-value";

interface Issue {
  path: string;
  message: string;
}

/** The `details.issues` of a 400, from the route or the upstream, when they have that shape. */
export function issuesOf(details: unknown): Issue[] {
  if (typeof details !== "object" || details === null || !("issues" in details) || !Array.isArray(details.issues)) return [];
  return details.issues.filter(
    (issue): issue is Issue =>
      typeof issue === "object" && issue !== null && typeof issue.path === "string" && typeof issue.message === "string",
  );
}

/** Why a clone failed, in the words the page owes the user, with the request id and any details. */
export function CloneFailure({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  if (error instanceof ApiRequestError && error.status === 403) {
    return (
      <div
        role="alert"
        className="rounded-lg border border-rose-200 bg-rose-50 p-4 text-sm text-rose-950 dark:border-rose-900 dark:bg-rose-950/40 dark:text-rose-100"
      >
        <p className="font-semibold">This key is not allowed to clone campaigns.</p>
        <p className="mt-1">Sign in with a key that holds the campaign permission for this store.</p>
        {error.requestId && (
          <p className="mt-2 text-xs">
            Reference for support:{" "}
            <code className="select-all font-mono" data-testid="request-id">
              {error.requestId}
            </code>
          </p>
        )}
      </div>
    );
  }
  const details = error instanceof ApiRequestError ? error.details : undefined;
  const issues = issuesOf(details);
  // A refused request would be refused again as it is: only failures that may pass on retry offer one.
  const retryable = error instanceof ApiRequestError && (error.status === 0 || error.status >= 500);
  return (
    <div className="space-y-2">
      <ErrorPanel error={error} onRetry={retryable ? onRetry : undefined} />
      {issues.length > 0 ? (
        <ul aria-label="What was not accepted" className="list-inside list-disc text-sm text-rose-800 dark:text-rose-300">
          {issues.map((issue) => (
            <li key={`${issue.path}:${issue.message}`}>
              <span className="font-mono text-xs">{issue.path}</span>: {issue.message}
            </li>
          ))}
        </ul>
      ) : (
        details !== undefined && <GenericValue value={details} />
      )}
    </div>
  );
}
