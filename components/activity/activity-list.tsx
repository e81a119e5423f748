"use client";

import { useQueries } from "@tanstack/react-query";
import { formatDateTime } from "@/lib/format";
import type { AuditAction, AuditEntry } from "@/lib/schemas/activity";
import { useActivity } from "@/lib/queries/activity";
import { requestIdOf } from "@/lib/queries/api-client";
import { storeProfileQueryOptions } from "@/lib/queries/store";
import { interpretTimeZone, type TimeZoneReading } from "@/lib/store-locale";
import { Badge, Card } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { ErrorPanel } from "@/components/ui/error-panel";
import { FallbackNote } from "@/components/ui/fallback-note";
import { EmptyState, Skeleton } from "@/components/ui/states";

const actionWords: Record<AuditAction, { label: string; targets: string; results: string }> = {
  "tracking-connection.remove": { label: "Removed a tracking connection", targets: "Connection", results: "" },
  "campaign-group.clone": { label: "Cloned a campaign group", targets: "Ad account, source", results: "New campaign group" },
};

function Ids({ ids }: { ids: string[] }) {
  return (
    <ul className="font-mono text-xs">
      {ids.map((id, index) => (
        <li key={`${index}:${id}`}>{id}</li>
      ))}
    </ul>
  );
}

/**
 * Each entry's time in its store's zone, like every other time of that store; where the
 * key cannot read a store's profile, in the reader's own zone.
 */
function useStoreZones(entries: readonly AuditEntry[]): Map<string, TimeZoneReading> {
  const storeUrls = [...new Set(entries.map((entry) => entry.storeUrl))];
  const profiles = useQueries({ queries: storeUrls.map((storeUrl) => ({ ...storeProfileQueryOptions(storeUrl), retry: false })) });
  const zones = new Map<string, TimeZoneReading>();
  storeUrls.forEach((storeUrl, index) => {
    const profile = profiles[index]?.data;
    if (profile) zones.set(storeUrl, interpretTimeZone(profile.timezone));
  });
  return zones;
}

function EntryRow({ entry, zone }: { entry: AuditEntry; zone?: TimeZoneReading }) {
  const words = actionWords[entry.action];
  return (
    <tr>
      <td className="py-2 pr-4 whitespace-nowrap">
        <time dateTime={entry.at}>{formatDateTime(entry.at, zone?.zone)}</time>
        <span className="block text-xs text-slate-500 dark:text-slate-400">{zone ? zone.label : "your time zone"}</span>
      </td>
      <th scope="row" className="py-2 pr-4 text-left font-medium">
        {words.label}
      </th>
      <td className="py-2 pr-4">
        <Badge tone={entry.outcome === "succeeded" ? "good" : "bad"}>{entry.outcome}</Badge>{" "}
        <span className="text-xs text-slate-500 dark:text-slate-400">{entry.status}</span>
      </td>
      <td className="max-w-xs py-2 pr-4 wrap-anywhere">{entry.storeUrl}</td>
      <td className="py-2 pr-4">
        <span className="block text-xs whitespace-nowrap text-slate-500 dark:text-slate-400">{words.targets}</span>
        <Ids ids={entry.targetIds} />
        {entry.resultIds.length > 0 && (
          <>
            <span className="mt-1 block text-xs whitespace-nowrap text-slate-500 dark:text-slate-400">{words.results}</span>
            <Ids ids={entry.resultIds} />
          </>
        )}
      </td>
      <td className="py-2 pr-4">{entry.userEmail}</td>
      <td className="py-2 font-mono text-xs whitespace-nowrap">{entry.upstreamRequestId ?? "—"}</td>
    </tr>
  );
}

/** The organization's change history: every guarded action, whoever ran it, newest first. */
export function ActivityList() {
  const activity = useActivity();
  const zones = useStoreZones(activity.data?.entries ?? []);
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold">Activity</h1>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            Tracking connections removed and campaign groups cloned through this dashboard by your organization, newest first.
          </p>
        </div>
        <Button variant="secondary" onClick={() => activity.refetch()} disabled={activity.isFetching}>
          {activity.isFetching ? "Refreshing…" : "Refresh"}
        </Button>
      </div>
      {[...zones].map(([storeUrl, zone]) => (
        <FallbackNote key={storeUrl} text={zone.fallbackNote && `${storeUrl}: ${zone.fallbackNote}`} />
      ))}
      <Card boundary={{ name: "The activity", requestId: requestIdOf(activity.data), resetKey: activity.data }}>
        {activity.isPending ? (
          <Skeleton lines={4} label="Loading the activity" />
        ) : activity.isError ? (
          <ErrorPanel error={activity.error} onRetry={() => activity.refetch()} />
        ) : activity.data.entries.length === 0 ? (
          <EmptyState title="No activity yet">Removals and clones made through this dashboard will show here.</EmptyState>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Activity of your organization, newest first</caption>
              <thead className="text-xs uppercase tracking-wide text-slate-500 dark:text-slate-400">
                <tr>
                  {["When", "Action", "Outcome", "Store", "Targets", "By", "Request ID"].map((heading) => (
                    <th key={heading} scope="col" className="py-2 pr-4 whitespace-nowrap">
                      {heading}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                {activity.data.entries.map((entry) => (
                  <EntryRow key={entry.id} entry={entry} zone={zones.get(entry.storeUrl)} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
    </div>
  );
}
