"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import { useTrackingConnections } from "@/client/queries/tracking-connections";
import { useCatalogConnections } from "@/client/queries/store";
import { requestIdOf } from "@/client/queries/api-client";
import type { TrackingConnection } from "@/shared/schemas/tracking-connection";
import { Card } from "@/components/ui/card";
import { ErrorPanel } from "@/components/ui/error-panel";
import { Skeleton } from "@/components/ui/states";
import { statusWords } from "@/shared/words";
import { catalogName, catalogStatusTone, staleSync } from "./catalog-card";

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** Tracking connections in a sentence or two: how many record orders, and what needs a look. */
function trackingHealth(connections: readonly TrackingConnection[]): { tone: "good" | "warn"; words: string } {
  if (connections.length === 0) return { tone: "warn", words: "No tracking connections: orders from ads cannot be attributed to them." };
  const disabled = connections.filter((connection) => !connection.enabled);
  const unpublished = connections.filter((connection) => connection.hasUnpublishedChanges);
  const enabled = connections.length - disabled.length;
  const parts = [`${enabled} of ${plural(connections.length, "tracking connection", "tracking connections")} enabled`];
  if (disabled.length > 0) parts.push(`off: ${disabled.map((connection) => connection.name).join(", ")}`);
  if (unpublished.length > 0) parts.push(`${plural(unpublished.length, "has", "have")} changes not yet published`);
  return { tone: disabled.length > 0 || unpublished.length > 0 ? "warn" : "good", words: `${parts.join("; ")}.` };
}

const text = (value: unknown) => (typeof value === "string" && value.trim() ? value : undefined);

/**
 * Catalogs in words, one line each with its own marker, in the tone of its card's status badge:
 * a catalog whose card says Active is never shown as failing here; an error the platform
 * reported beside that status is quoted as its last error.
 */
export function catalogHealth(
  catalogs: readonly Record<string, unknown>[],
  now = Date.now(),
): { tone: "good" | "warn" | "bad"; line: string }[] {
  if (catalogs.length === 0) return [{ tone: "warn", line: "No catalog connections: products are not synchronized with any platform." }];
  return catalogs.map((catalog) => {
    const name = catalogName(catalog);
    const status = text(catalog.status);
    const error = text(catalog.errorMessage);
    const tone = catalogStatusTone(status) ?? (error ? "bad" : "warn");
    const state = status ? statusWords(status) : "State unknown";
    const stale = staleSync(catalog, now);
    // An active catalog that has not synchronized for over a week is not fine: its products may be out of date.
    if (tone === "good" && stale)
      return {
        tone: "warn",
        line: `${name}: ${state}, but not synchronized for over a week (its last sync: ${stale}): its products may be out of date.`,
      };
    if (tone === "good") return { tone, line: `${name}: ${state}, synchronizing${error ? `; its last error: ${error}` : ""}.` };
    return { tone, line: `${name}: ${state}${error ? ` — ${error}` : ""}.` };
  });
}

const dot = { good: "bg-emerald-500", warn: "bg-amber-500", bad: "bg-rose-600" };
const toneWord = { good: "Fine", warn: "Needs a look", bad: "Failing" };

function HealthLine({ tone, children }: { tone: keyof typeof dot; children: ReactNode }) {
  return (
    <div className="flex items-start gap-2 text-sm">
      <span aria-hidden="true" className={`mt-1.5 inline-block h-2 w-2 shrink-0 rounded-full ${dot[tone]}`} />
      <div className="min-w-0 break-words">
        <span className="sr-only">{toneWord[tone]}: </span>
        {children}
      </div>
    </div>
  );
}

export function StoreHealth({ storeUrl, organizationId }: { storeUrl: string; organizationId?: string }) {
  const tracking = useTrackingConnections(storeUrl, organizationId);
  const catalogs = useCatalogConnections(storeUrl, organizationId);
  const suffix = organizationId ? `?organizationId=${encodeURIComponent(organizationId)}` : "";
  return (
    <Card
      title="Tracking and catalogs"
      boundary={{ name: "The health summary", requestId: requestIdOf(tracking.data), resetKey: tracking.data }}
    >
      <div className="space-y-3" data-testid="store-health">
        {tracking.isPending ? (
          <Skeleton lines={1} label="Reading the tracking connections" />
        ) : tracking.isError ? (
          <ErrorPanel error={tracking.error} onRetry={() => tracking.refetch()} />
        ) : (
          <HealthLine tone={trackingHealth(tracking.data.pixels).tone}>
            {trackingHealth(tracking.data.pixels).words}{" "}
            <Link
              href={`/stores/${encodeURIComponent(storeUrl)}/tracking${suffix}`}
              className="text-indigo-700 underline dark:text-indigo-300"
            >
              Tracking
            </Link>
          </HealthLine>
        )}
        {catalogs.isPending ? (
          <Skeleton lines={1} label="Reading the catalog connections" />
        ) : catalogs.isError ? (
          // The catalog section below shows the error with its request id and a retry: said once.
          <HealthLine tone="warn">
            <p>The catalogs could not be read just now: see Catalog connections below.</p>
          </HealthLine>
        ) : (
          catalogHealth(catalogs.data).map(({ tone, line }) => (
            <HealthLine key={line} tone={tone}>
              <p>{line}</p>
            </HealthLine>
          ))
        )}
      </div>
    </Card>
  );
}
