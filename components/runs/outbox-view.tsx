"use client";

import { useState } from "react";
import { useOutbox } from "@/client/queries/runs";
import { StoreTime } from "@/components/ui/times";
import { Badge, Card } from "@/components/ui/card";
import { ErrorPanel } from "@/components/ui/error-panel";
import { EmptyState, Skeleton } from "@/components/ui/states";
import { StoreFilter, storeName } from "@/components/ui/store-filter";
import { OUTCOMES } from "./runs-view";

/**
 * Every message that would have been e-mailed, rendered, when no SMTP server is set (the demo).
 * Each message is shown whole in a sandboxed frame: its HTML runs no script and reaches nothing;
 * the frame takes the height of the message, so nothing of it is cut.
 */
function fitToContent(frame: HTMLIFrameElement) {
  const height = frame.contentDocument?.documentElement.scrollHeight;
  if (height) frame.style.height = `${height + 2}px`;
}

export function OutboxView({ organizationId }: { organizationId?: string }) {
  const [store, setStore] = useState<string>();
  const outbox = useOutbox(organizationId, store);
  return (
    <div className="space-y-6">
      <header>
        <h1 className="text-xl font-semibold">Outbox</h1>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          {outbox.data?.smtp
            ? "E-mail goes out by SMTP on this dashboard; messages sent before it was set up are kept here."
            : "No mail server is set up for this dashboard, so every message it would send is kept here, as it would arrive. (Whoever runs the dashboard sets the mail server in its settings.)"}
        </p>
      </header>
      <StoreFilter id="outbox-store" stores={outbox.data?.stores} value={store} onChange={setStore} />
      {outbox.isPending && <Skeleton lines={3} label="Loading the Outbox" />}
      {outbox.isError && <ErrorPanel error={outbox.error} onRetry={() => outbox.refetch()} />}
      {outbox.data?.messages.length === 0 && (
        <Card>
          <EmptyState title="The Outbox is empty">Schedule a digest on a store&apos;s Digests page, then use Send now.</EmptyState>
        </Card>
      )}
      {outbox.data?.messages.map((message) => (
        <Card key={message.key} title={message.subject}>
          <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">
            <bdi>{storeName(outbox.data.stores, message.storeUrl)}</bdi> · To {message.recipient} ·{" "}
            <StoreTime at={message.createdAt} storeUrl={message.storeUrl} organizationId={organizationId} />{" "}
            <Badge tone={OUTCOMES[message.outcome].tone}>{OUTCOMES[message.outcome].label}</Badge>
          </p>
          <iframe
            title={`Message: ${message.subject}`}
            // Same origin without scripts: the page may measure the message, the message still runs nothing.
            sandbox="allow-same-origin"
            srcDoc={message.html}
            onLoad={(event) => fitToContent(event.currentTarget)}
            className="min-h-40 w-full rounded-lg border border-slate-200 bg-white dark:border-slate-800"
          />
          <details className="mt-3 text-sm">
            <summary className="cursor-pointer font-medium">Plain-text part</summary>
            <pre className="mt-2 whitespace-pre-wrap break-words">{message.text}</pre>
          </details>
        </Card>
      ))}
    </div>
  );
}
