"use client";

import { useQueries } from "@tanstack/react-query";
import { formatDateTime } from "@/shared/format";
import { isUpstreamAction, type AuditAction, type AuditEntry, type AuditOutcome } from "@/shared/schemas/activity";
import { storeProfileQueryOptions } from "@/client/queries/store";
import { interpretTimeZone } from "@/shared/store-locale";
import { Badge } from "@/components/ui/card";
import { Breakable } from "@/components/ui/breakable";
import { FallbackNote } from "@/components/ui/fallback-note";
import { ColumnHeadings } from "@/components/ui/column-headings";

export const actionLabels: Record<AuditAction, string> = {
  "tracking-connection.remove": "Removed a tracking connection",
  "campaign-group.clone": "Cloned a campaign group",
  "alert-rule.create": "Added an alert rule",
  "alert-rule.change": "Changed an alert rule",
  "alert-rule.delete": "Deleted an alert rule",
  "alert-rule.pause": "Muted or snoozed an alert rule",
  "digest.create": "Scheduled a digest",
  "digest.change": "Changed a digest",
  "digest.delete": "Deleted a digest",
  "digest.send-now": "Sent a digest now",
  "delivery.send-again": "Sent a message of unknown outcome again",
  "delivery.arrived": "Marked a message of unknown outcome as arrived",
};

export const outcomeLabels: Record<AuditOutcome, string> = {
  succeeded: "Succeeded",
  failed: "Failed",
  not_done: "Not done",
  unknown: "Unknown",
};

const outcomeTones: Record<AuditOutcome, "good" | "bad" | "warn" | "neutral"> = {
  succeeded: "good",
  failed: "bad",
  not_done: "neutral",
  unknown: "warn",
};

interface StoreZone {
  zone: string;
  label: string;
  note?: string;
}

/**
 * Each entry's time in its store's zone, like every other time of that store. A store whose
 * profile cannot be read (or is still loading) is shown in UTC, with a note once it failed.
 */
function useStoreZones(entries: readonly AuditEntry[]): { zoneOf: (storeUrl: string) => StoreZone; notes: string[] } {
  const storeUrls = [...new Set(entries.map((entry) => entry.storeUrl))];
  const profiles = useQueries({ queries: storeUrls.map((storeUrl) => ({ ...storeProfileQueryOptions(storeUrl), retry: false })) });
  const zones = new Map<string, StoreZone>();
  storeUrls.forEach((storeUrl, index) => {
    const profile = profiles[index];
    if (profile?.data) {
      const reading = interpretTimeZone(profile.data.timezone);
      zones.set(storeUrl, {
        zone: reading.zone,
        label: reading.label,
        note: reading.fallbackNote && `${storeUrl}: ${reading.fallbackNote}`,
      });
    } else if (profile?.isError) {
      zones.set(storeUrl, { zone: "UTC", label: "UTC", note: `${storeUrl}: times shown in UTC, the store's time zone could not be read.` });
    }
  });
  const utc: StoreZone = { zone: "UTC", label: "UTC" };
  return { zoneOf: (storeUrl) => zones.get(storeUrl) ?? utc, notes: [...zones.values()].flatMap((zone) => (zone.note ? [zone.note] : [])) };
}

const muted = "text-xs text-slate-600 dark:text-slate-400";
const Id = ({ children }: { children: string }) => (
  <code className="font-mono text-xs">
    <Breakable text={children} />
  </code>
);

/** One named thing, its name first and its ID beneath: the tracking page and Campaign Manager show both. */
function Named({ label, name, id, extra }: { label: string; name?: string; id?: string; extra?: string }) {
  if (!name && !id) return null;
  return (
    <div>
      <span className={`block ${muted}`}>{label}</span>
      {name ? <span className="font-medium">{name}</span> : <span className={muted}>name not known</span>}
      {extra && <span className={muted}> ({extra})</span>}
      {id && (
        <span className="block">
          <Id>{id}</Id>
        </span>
      )}
    </div>
  );
}

function Target({ entry }: { entry: AuditEntry }) {
  const { target } = entry;
  if (!isUpstreamAction(entry.action)) {
    return (
      <div className="space-y-1">
        {target.ruleId && <Named label="Alert rule" name={target.ruleName} id={target.ruleId} />}
        {target.digestId && <Named label="Digest" name={target.viewName} id={target.digestId} />}
        {target.change && <p className={muted}>{target.change}</p>}
      </div>
    );
  }
  if (entry.action === "tracking-connection.remove") {
    return <Named label="Tracking connection" name={target.connectionName} id={target.connectionId} extra={target.channel} />;
  }
  return (
    <div className="space-y-1">
      <Named label="Source campaign group" name={target.sourceCampaignGroupName} id={target.sourceCampaignGroupId} />
      <Named label="New campaign group" name={target.newGroupName} id={target.newGroupId} />
      <Named label="Ad account" name={target.adAccountName} id={target.adAccountId} />
    </div>
  );
}

/** What an outcome means for the person reading it, and for `unknown` what to check. */
function outcomeExplanation(entry: AuditEntry): string {
  const { target } = entry;
  switch (entry.outcome) {
    case "succeeded":
      return "";
    case "failed":
      return "The analytics service refused it; nothing changed.";
    case "not_done":
      return "It never ran: it was not sent, or the service asked to try later.";
    case "unknown": {
      if (entry.action === "tracking-connection.remove") {
        return `The answer was lost: check whether “${target.connectionName ?? target.connectionId}” is still listed on the store's tracking page. Removing it again is safe.`;
      }
      const account = target.adAccountName ? `${target.adAccountName} (${target.adAccountId})` : target.adAccountId;
      return `The answer was lost: the clone may or may not exist. Check ad account ${account} in LinkedIn Campaign Manager for a campaign group named “${target.newGroupName}” before cloning again.`;
    }
  }
}

function EntryRow({ entry, zone, highlighted }: { entry: AuditEntry; zone: StoreZone; highlighted: boolean }) {
  const explanation = outcomeExplanation(entry);
  return (
    <tr id={`entry-${entry.id}`} className={`align-top ${highlighted ? "bg-indigo-50 dark:bg-indigo-950/40" : ""}`}>
      <td data-label="When" className="py-2 pr-4 whitespace-nowrap">
        <time dateTime={entry.at}>{formatDateTime(entry.at, zone.zone)}</time>
        <span className={`block ${muted}`}>{zone.label}</span>
      </td>
      <th scope="row" className="py-2 pr-4 text-left font-medium max-sm:text-base">
        {actionLabels[entry.action]}
      </th>
      <td data-label="Outcome" className="min-w-48 py-2 pr-4">
        <Badge tone={outcomeTones[entry.outcome]}>{outcomeLabels[entry.outcome]}</Badge>{" "}
        {/* Only an action the analytics service should have answered can lack its answer: a succeeded one never does. */}
        {entry.outcome === "unknown" && entry.status === null && <span className={muted}>no answer came</span>}
        {explanation && <p className={`mt-1 max-w-xs ${muted}`}>{explanation}</p>}
      </td>
      <td data-label="Store" className="max-w-xs py-2 pr-4">
        <Breakable text={entry.storeUrl} />
      </td>
      <td data-label="Target" className="min-w-56 py-2 pr-4">
        <Target entry={entry} />
      </td>
      <td data-label="By" className="py-2 pr-4">
        <Breakable text={entry.userEmail} />
        {/* Which key of the person's ring acted: its store and short label, never the key. */}
        {entry.keyLabel && <span className={`block ${muted}`} data-testid="acting-key">{`${entry.storeUrl} · ${entry.keyLabel}`}</span>}
      </td>
      <td data-label="Details" className="py-2">
        {/* For support: the request IDs that trace this action, out of the way until asked for. */}
        <details>
          <summary className="cursor-pointer text-sm">Details</summary>
          <span className={`block ${muted}`}>Dashboard request</span>
          <Id>{entry.requestId ?? "—"}</Id>
          <span className={`block ${muted}`}>Analytics service request</span>
          <Id>{entry.upstreamRequestId ?? "—"}</Id>
        </details>
      </td>
    </tr>
  );
}

/** Guarded actions, newest first: names beside IDs, the outcome and what to check, who, when and both request ids. */
export function ActivityTable({ entries, highlightId }: { entries: readonly AuditEntry[]; highlightId?: string }) {
  const { zoneOf, notes } = useStoreZones(entries);
  return (
    <div className="space-y-3">
      {notes.map((note) => (
        <FallbackNote key={note} text={note} />
      ))}
      {/* A focusable, named scroll box: keyboard users can scroll the wide table sideways on small screens. */}
      <div className="relative overflow-x-auto" tabIndex={0} role="region" aria-label="Activity entries, scrolls sideways">
        <table className="cards-on-phone w-full text-left text-sm">
          <caption className="sr-only">Activity of your organization, newest first</caption>
          <thead className="text-xs uppercase tracking-wide text-slate-600 dark:text-slate-400">
            <ColumnHeadings
              headings={["When", "Action", "Outcome", "Store", "Target", "By", "Details"]}
              className="py-2 pr-4 whitespace-nowrap"
            />
          </thead>
          <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
            {entries.map((entry) => (
              <EntryRow key={entry.id} entry={entry} zone={zoneOf(entry.storeUrl)} highlighted={entry.id === highlightId} />
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
