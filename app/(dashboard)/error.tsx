"use client";

import { ErrorPanel } from "@/components/ui/error-panel";

/** A page that failed while drawing: say so, keep the layout, and offer to try again. */
export default function DashboardError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <ErrorPanel error={new Error(`This page could not be shown${error.digest ? ` (reference ${error.digest})` : ""}.`)} onRetry={reset} />
  );
}
