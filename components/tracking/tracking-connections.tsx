"use client";

import { useRef, useState } from "react";
import { formatDateTime } from "@/shared/format";
import { ApiRequestError } from "@/client/queries/api-client";
import { requestIdOf } from "@/client/queries/api-client";
import { useStoreProfile } from "@/client/queries/store";
import { interpretTimeZone } from "@/shared/store-locale";
import { useKeyRefusal, useRefreshKeyRefusals } from "@/client/queries/key-refusals";
import { useRemoveTrackingConnection, useTrackingConnections } from "@/client/queries/tracking-connections";
import { timestampToDate, type TrackingConnection } from "@/shared/schemas/tracking-connection";
import { Card } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { ErrorPanel } from "@/components/ui/error-panel";
import { FallbackNote } from "@/components/ui/fallback-note";
import { KeyRefusalNote } from "@/components/ui/key-refusal-note";
import { EmptyState, Skeleton } from "@/components/ui/states";
import { ActionNotice, type Notice } from "./action-notice";
import { ConnectionDetails } from "./connection-details";
import { ConnectionList } from "./connection-list";
import { RemovalStakes } from "./removal-stakes";
import { Breakable } from "@/components/ui/breakable";

export function TrackingConnections({ storeUrl, organizationId }: { storeUrl: string; organizationId?: string }) {
  const connections = useTrackingConnections(storeUrl, organizationId);
  const profile = useStoreProfile(storeUrl, organizationId);
  const zone = profile.data ? interpretTimeZone(profile.data.timezone) : undefined;
  const remove = useRemoveTrackingConnection(storeUrl, organizationId);
  const { refusal, isPending: refusalsPending, recheck } = useKeyRefusal("tracking-connection.remove", storeUrl, organizationId);
  /** Whether the key may remove is being asked again, as a removal dialog is about to open. */
  const [checking, setChecking] = useState(false);
  const focusRefusal = useRef(false);
  const refreshRefusals = useRefreshKeyRefusals();
  const [selectedId, setSelectedId] = useState<string>();
  /** The connection whose removal dialog is open; each opening is a new removal (a new key), kept for every retry from the dialog. */
  const [removal, setRemoval] = useState<{ connection: TrackingConnection }>();
  const [notice, setNotice] = useState<Notice>();

  const selected = connections.data?.pixels.find((connection) => connection.id === selectedId);
  const when = (value: number) => {
    const date = timestampToDate(value);
    // A number no date can hold is shown as it came.
    if (Number.isNaN(date.getTime())) return <Breakable text={String(value)} />;
    return (
      <time dateTime={date.toISOString()} title={zone ? `In the store's time zone, ${zone.label}` : undefined}>
        {formatDateTime(date, zone?.zone)}
      </time>
    );
  };

  /** The permission is asked as the dialog opens: a key that is refused never gets to type the name. */
  async function openRemoval(connection: TrackingConnection) {
    remove.reset();
    setNotice(undefined);
    setChecking(true);
    const refused = await recheck().finally(() => setChecking(false));
    if (refused) {
      // The reason takes the focus: now if it is shown already, else as it appears.
      const shown = document.getElementById("remove-refused");
      if (shown) shown.focus();
      else focusRefusal.current = true;
      return;
    }
    setRemoval({ connection });
  }

  function confirmRemoval() {
    if (!removal || remove.isPending) return;
    const { connection } = removal;
    remove.run(connection.id, {
      then: {
        onSuccess: ({ requestId, auditId }) => {
          setRemoval(undefined);
          if (selectedId === connection.id) setSelectedId(undefined);
          setNotice({
            tone: "success",
            text: `Removed “${connection.name}”. It no longer tracks events for this store.`,
            requestId,
            auditId,
          });
        },
        onError: (error) => {
          if (!(error instanceof ApiRequestError)) return;
          if (error.status === 403) {
            setRemoval(undefined);
            // Remembered for this key from now on: the page shows removal as unavailable before the next try.
            refreshRefusals();
            setNotice({
              tone: "error",
              text: "This key is not allowed to remove tracking connections. Sign in with a key that has this permission.",
              requestId: error.requestId,
            });
          } else if (error.status === 404) {
            setRemoval(undefined);
            setNotice({
              tone: "info",
              text: `“${connection.name}” was already removed. The list has been refreshed.`,
              requestId: error.requestId,
            });
          }
        },
      },
    });
  }

  // 403 and 404 close the dialog with a notice; other errors keep it open, with the message, for a retry.
  const dialogError =
    remove.error && !(remove.error instanceof ApiRequestError && [403, 404].includes(remove.error.status)) ? remove.error : undefined;

  return (
    <div className="space-y-6">
      <h2 className="text-xl font-semibold">Tracking connections</h2>
      <FallbackNote text={zone?.fallbackNote} />
      {notice && <ActionNotice notice={notice} onDismiss={() => setNotice(undefined)} />}
      {refusal && (
        <KeyRefusalNote
          id="remove-refused"
          refusal={refusal}
          what="Removing tracking connections"
          noteRef={(node) => {
            if (node && focusRefusal.current) {
              focusRefusal.current = false;
              node.focus();
            }
          }}
        />
      )}
      <Card boundary={{ name: "The tracking connections", requestId: requestIdOf(connections.data), resetKey: connections.data }}>
        {connections.isPending ? (
          <Skeleton lines={5} label="Loading tracking connections" />
        ) : connections.isError ? (
          <ErrorPanel error={connections.error} onRetry={() => connections.refetch()} />
        ) : connections.data.pixels.length === 0 ? (
          <EmptyState title="No tracking connections">This store sends its events to no advertising platform.</EmptyState>
        ) : (
          <ConnectionList
            storeUrl={storeUrl}
            connections={connections.data.pixels}
            selectedId={selectedId}
            when={when}
            onDetails={(connection) => setSelectedId(connection.id === selectedId ? undefined : connection.id)}
            onRemove={(connection) => void openRemoval(connection)}
            removeRefusedBy={refusal ? "remove-refused" : undefined}
            removeBlocked={refusalsPending || checking}
          />
        )}
      </Card>
      {selected && (
        <div id="connection-details">
          <ConnectionDetails
            connection={selected}
            onClose={() => {
              setSelectedId(undefined);
              // Back to the button that opened them (the table's or the card's, whichever is shown).
              const buttons = document.querySelectorAll<HTMLButtonElement>(`[aria-controls="connection-details"]`);
              [...buttons].find((button) => button.offsetParent !== null)?.focus();
            }}
          />
        </div>
      )}
      <ConfirmDialog
        open={removal !== undefined && !refusal}
        title="Remove tracking connection"
        confirmText={removal?.connection.name ?? ""}
        confirmLabel="Remove tracking connection"
        pendingLabel="Removing…"
        pending={remove.isPending}
        error={dialogError && <ErrorPanel error={dialogError} />}
        onConfirm={confirmRemoval}
        onClose={() => setRemoval(undefined)}
      >
        {removal && (
          <>
            {zone && profile.data && (
              <RemovalStakes
                storeUrl={storeUrl}
                organizationId={organizationId}
                connection={removal.connection}
                connections={connections.data?.pixels ?? []}
                timeZone={zone.zone}
                zoneLabel={zone.label}
                currency={profile.data.currency}
              />
            )}
            <p>
              <strong>{removal.connection.name}</strong> ({removal.connection.channel}, pixel{" "}
              <span className="font-mono">{removal.connection.pixel}</span>) will be removed from {storeUrl}.
            </p>
            {removal.connection.enabled ? (
              <p>
                The store stops sending its events (
                {removal.connection.settings.eventSettings.includeEvents.join(", ") || "none configured"}) to {removal.connection.channel}.
                Conversions from then on are not reported to that platform, and its campaigns optimize without them. This cannot be undone
                here.
              </p>
            ) : (
              <p data-testid="disabled-stakes">
                This connection is disabled: it sends nothing to {removal.connection.channel} now, so removing it stops no events. Its
                settings are lost, and it cannot be enabled again after the removal. This cannot be undone here.
              </p>
            )}
          </>
        )}
      </ConfirmDialog>
    </div>
  );
}
