"use client";

import { useState } from "react";
import Link from "next/link";
import { alertMessageSchema } from "@/shared/schemas/alert";
import type { InboxNotification } from "@/shared/schemas/notification";
import { alertBadge, whatMovedLines } from "@/shared/alert-message";
import { StoreTime } from "@/components/ui/times";
import { useInbox, useMarkNotification } from "@/client/queries/notifications";
import { Button } from "@/components/ui/button";
import { Badge, Card } from "@/components/ui/card";
import { ErrorPanel } from "@/components/ui/error-panel";
import { EmptyState, Skeleton } from "@/components/ui/states";
import { StoreFilter, storeName } from "@/components/ui/store-filter";
import type { ReachStoreItem } from "@/shared/schemas/reach";

function NotificationItem({ note, stores }: { note: InboxNotification; stores: readonly ReachStoreItem[] }) {
  const mark = useMarkNotification();
  const message = alertMessageSchema.safeParse(note.body);
  const lines = message.success ? whatMovedLines(message.data) : [];
  const badge =
    note.kind === "rule_paused"
      ? { label: "Paused", tone: "warn" as const }
      : message.success
        ? alertBadge(message.data)
        : note.kind === "alert_fired"
          ? { label: "Alert", tone: "bad" as const }
          : { label: "Resolved", tone: "good" as const };
  const rule = note.ruleId ? `/stores/${encodeURIComponent(note.storeUrl)}/alerts/${note.ruleId}` : null;
  return (
    <li
      className={`py-4 ${note.read ? "" : "border-l-4 border-indigo-500 pl-3"}`}
      aria-label={`${note.read ? "" : "Unread: "}${note.title}`}
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 space-y-1">
          <p className="flex flex-wrap items-center gap-2">
            <Badge tone={badge.tone}>{badge.label}</Badge>
            {!note.read && <Badge tone="info">Unread</Badge>}
            <span className={note.read ? "" : "font-semibold"}>
              <bdi>{note.title}</bdi>
            </span>
          </p>
          <p className="text-xs text-slate-500 dark:text-slate-400">
            <StoreTime at={note.createdAt} storeUrl={note.storeUrl} /> · <bdi>{storeName(stores, note.storeUrl)}</bdi>
            {rule && (
              <>
                {" "}
                · <Link href={rule}>Open the rule</Link>
              </>
            )}
          </p>
          {lines.length > 0 && (
            <div className="text-sm">
              <p className="font-medium">What moved</p>
              <ul className="list-disc pl-5">
                {lines.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            </div>
          )}
        </div>
        <Button variant="secondary" disabled={mark.isPending} onClick={() => mark.mutate({ id: note.id, read: !note.read })}>
          {note.read ? "Mark as unread" : "Mark as read"}
        </Button>
      </div>
    </li>
  );
}

/** The inbox of the stores this session reaches: alerts that fired and resolved, newest first, read or not by this user. */
export function InboxList() {
  const [store, setStore] = useState<string>();
  const inbox = useInbox(store);
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">Inbox</h1>
      <StoreFilter id="inbox-store" stores={inbox.data?.stores} value={store} onChange={setStore} />
      <Card title={<span>Notifications{inbox.data ? ` (${inbox.data.unread} unread)` : ""}</span>}>
        {inbox.isPending ? (
          <Skeleton label="Loading the inbox" />
        ) : inbox.isError ? (
          <ErrorPanel error={inbox.error} onRetry={() => void inbox.refetch()} />
        ) : inbox.data.notifications.length === 0 ? (
          <EmptyState title="Nothing here yet">When an alert rule fires or resolves, it shows here.</EmptyState>
        ) : (
          <ul className="divide-y divide-slate-100 dark:divide-slate-800">
            {inbox.data.notifications.map((note) => (
              <NotificationItem key={note.id} note={note} stores={inbox.data.stores} />
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
