import { useEffect } from "react";
import type { TrackingConnection } from "@/shared/schemas/tracking-connection";
import { Badge, Card, DescriptionList } from "@/components/ui/card";
import { GenericValue } from "@/components/ui/generic-value";
import { yesNo } from "./flags";

function EventList({ label, events }: { label: string; events: string[] }) {
  return (
    <div>
      <h4 className="text-xs font-medium uppercase tracking-wide text-slate-500 dark:text-slate-400">{label}</h4>
      {events.length === 0 ? (
        <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">none</p>
      ) : (
        <ul className="mt-1 flex flex-wrap gap-1.5" aria-label={label}>
          {events.map((event) => (
            <li key={event}>
              <Badge>{event}</Badge>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The settings of one tracking connection, with its included and excluded events. */
export function ConnectionDetails({ connection, onClose }: { connection: TrackingConnection; onClose: () => void }) {
  const { settings } = connection;
  // Escape closes the details, as it closes menus and dialogs; an open dialog takes its own Escape first.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || event.defaultPrevented || document.querySelector("dialog[open]")) return;
      onClose();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [onClose]);
  return (
    <Card
      boundary={{ name: "The connection details", resetKey: connection }}
      title={
        <span id="connection-details-title" className="break-words">
          Details of <bdi>{connection.name}</bdi>
        </span>
      }
      actions={
        <button type="button" onClick={onClose} className="text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300">
          Close details
        </button>
      }
    >
      <div className="space-y-5" role="region" aria-labelledby="connection-details-title">
        <DescriptionList
          items={[
            { label: "Connection ID", value: <code className="font-mono text-xs">{connection.id}</code> },
            { label: "Store", value: connection.store },
            { label: "Tracking enabled (settings)", value: yesNo(settings.enabled) },
            { label: "Hide original IP", value: yesNo(settings.hideOriginalIP) },
            { label: "Google Analytics", value: yesNo(settings.gaAnalytics) },
            { label: "Subscribe events disabled", value: yesNo(settings.disableSubscribeEvents) },
            { label: "Base domain", value: settings.baseDomain },
          ]}
        />
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <EventList label="Included events" events={settings.eventSettings.includeEvents} />
          <EventList label="Excluded events" events={settings.eventSettings.excludeEvents} />
        </div>
        <div>
          <h4 className="text-xs font-medium uppercase tracking-wide text-slate-500 dark:text-slate-400">Metadata</h4>
          <div className="mt-1">
            <GenericValue value={settings.metadata} />
          </div>
        </div>
      </div>
    </Card>
  );
}
