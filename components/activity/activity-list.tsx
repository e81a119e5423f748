"use client";

import Link from "next/link";
import { hasFilters, searchOfFilters } from "@/shared/activity-filters";
import { activityExportHref, useActivity, useActivityEntry } from "@/client/queries/activity";
import { requestIdOf } from "@/client/queries/api-client";
import type { ActivityFilters } from "@/shared/schemas/activity";
import { Card } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { ErrorPanel } from "@/components/ui/error-panel";
import { EmptyState, Skeleton } from "@/components/ui/states";
import { ActivityFiltersForm } from "./activity-filters";
import { ActivityTable } from "./activity-table";

const linkClass = "text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300";

/** The filtered history, 50 entries a page, older pages added below on request. */
function FilteredActivity({ filters }: { filters: ActivityFilters }) {
  const activity = useActivity(filters);
  const entries = activity.data?.pages.flatMap((page) => page.entries) ?? [];
  // The filter offers the stores this session reaches.
  const reach = activity.data?.pages[0]?.stores ?? [];
  const stores = [...new Set([...reach.map((store) => store.url), ...(filters.store ? [filters.store] : [])])];
  const filtered = hasFilters(filters);
  return (
    <>
      <Card title="Filters">
        <ActivityFiltersForm key={searchOfFilters(filters)} filters={filters} stores={stores} />
      </Card>
      <Card
        title={filtered ? "Matching entries" : "All entries"}
        actions={
          <div className="flex flex-wrap items-center gap-3">
            <a href={activityExportHref(filters)} download className={linkClass}>
              Export {filtered ? "the filtered list" : "all"} as CSV
            </a>
            <Button variant="secondary" onClick={() => activity.refetch()} disabled={activity.isFetching}>
              {activity.isFetching && !activity.isFetchingNextPage ? "Refreshing…" : "Refresh"}
            </Button>
          </div>
        }
        boundary={{ name: "The activity", requestId: requestIdOf(activity.data?.pages[0]), resetKey: activity.data }}
      >
        {activity.isPending ? (
          <Skeleton lines={4} label="Loading the activity" />
        ) : !activity.data ? (
          <ErrorPanel error={activity.error} onRetry={() => activity.refetch()} />
        ) : entries.length === 0 ? (
          <EmptyState title={filtered ? "No entries match these filters" : "No activity yet"}>
            {filtered ? (
              <Link href="/activity" className={linkClass}>
                Clear filters
              </Link>
            ) : (
              "Removals and clones made through this dashboard will show here."
            )}
          </EmptyState>
        ) : (
          <div className="space-y-4">
            <ActivityTable entries={entries} />
            <div className="flex flex-wrap items-center gap-3 text-sm">
              <span aria-live="polite" data-testid="activity-count">
                {entries.length} {entries.length === 1 ? "entry" : "entries"} shown{activity.hasNextPage ? ", older ones remain" : ""}
              </span>
              {activity.hasNextPage && (
                <Button variant="secondary" onClick={() => activity.fetchNextPage()} disabled={activity.isFetchingNextPage}>
                  {activity.isFetchingNextPage ? "Loading older entries…" : "Show older entries"}
                </Button>
              )}
            </div>
            {activity.isFetchNextPageError && <ErrorPanel error={activity.error} onRetry={() => activity.fetchNextPage()} />}
          </div>
        )}
      </Card>
    </>
  );
}

/** One entry, the target of the link in an action's notice. */
function OneEntry({ id }: { id: string }) {
  const entry = useActivityEntry(id);
  return (
    <Card
      title="One entry"
      actions={
        <Link href="/activity" className={linkClass}>
          Show all activity
        </Link>
      }
      boundary={{ name: "The entry", requestId: requestIdOf(entry.data), resetKey: entry.data }}
    >
      {entry.isPending ? (
        <Skeleton lines={2} label="Loading the entry" />
      ) : entry.isError ? (
        <ErrorPanel error={entry.error} onRetry={() => entry.refetch()} />
      ) : entry.data.entries.length === 0 ? (
        <EmptyState title="This entry is not in the activity of your stores">It may have passed its retention period.</EmptyState>
      ) : (
        <ActivityTable entries={entry.data.entries} highlightId={id} />
      )}
    </Card>
  );
}

/** The organization's change history: every guarded action, whoever ran it, newest first. */
export function ActivityList({ filters, entryId }: { filters: ActivityFilters; entryId?: string }) {
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Activity</h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          What your organization did through this dashboard, newest first: tracking connections removed, campaign groups cloned, alert rules
          added, changed, muted or deleted, digests scheduled, changed, deleted or sent, and decisions on messages whose delivery was
          unknown. Times are in each store&apos;s time zone.
        </p>
      </div>
      {entryId ? <OneEntry id={entryId} /> : <FilteredActivity filters={filters} />}
    </div>
  );
}
