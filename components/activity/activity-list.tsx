"use client";

import { formatDateTime } from "@/lib/format";
import type { AuditAction, AuditEntry } from "@/lib/schemas/activity";
import { useActivity } from "@/lib/queries/activity";
import { Badge, Card } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { ErrorPanel } from "@/components/ui/error-panel";
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

function EntryRow({ entry }: { entry: AuditEntry }) {
  const words = actionWords[entry.action];
  return (
    <tr>
      <td className="py-2 pr-4 whitespace-nowrap">
        <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
      </td>
      <th scope="row" className="py-2 pr-4 text-left font-medium">
        {words.label}
      </th>
      <td className="py-2 pr-4">
        <Badge tone={entry.outcome === "succeeded" ? "good" : "bad"}>{entry.outcome}</Badge>{" "}
        <span className="text-xs text-slate-500 dark:text-slate-400">{entry.status}</span>
      </td>
      <td className="py-2 pr-4">{entry.storeUrl}</td>
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
      <Card>
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
                  <EntryRow key={entry.id} entry={entry} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
    </div>
  );
}
