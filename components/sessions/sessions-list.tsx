"use client";

import { YourTime } from "@/components/ui/times";
import { useEndSessions, useSessions } from "@/client/queries/sessions";
import type { SessionListItem } from "@/shared/schemas/sessions";
import { describeUserAgent } from "@/shared/user-agent";
import { Badge, Card } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { ErrorPanel } from "@/components/ui/error-panel";
import { Skeleton } from "@/components/ui/states";
import { Breakable } from "@/components/ui/breakable";
import { addressWords } from "@/shared/words";

function SessionRow({ session, onEnd, pending }: { session: SessionListItem; onEnd: () => void; pending: boolean }) {
  const browser = describeUserAgent(session.userAgent);
  return (
    <li className="flex flex-wrap items-start justify-between gap-3 py-3">
      <div className="min-w-0">
        <p className="font-medium break-words">
          {browser} {session.current && <Badge tone="info">This device</Badge>}
        </p>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          <span title={session.clientAddress || undefined}>
            <Breakable text={addressWords(session.clientAddress)} />
          </span>{" "}
          · <Breakable text={session.userEmail} />
        </p>
        <p className="text-xs text-slate-500 dark:text-slate-400">
          Signed in <YourTime at={session.createdAt} /> · last active <YourTime at={session.lastSeenAt} />
        </p>
      </div>
      <Button
        variant="secondary"
        onClick={onEnd}
        disabled={pending}
        aria-label={`Sign out ${browser}${session.current ? " (this device)" : ""}`}
      >
        Sign out
      </Button>
    </li>
  );
}

/** Every sign-in of this API key, on this device or another, each of which can be ended. */
export function SessionsList() {
  const sessions = useSessions();
  const end = useEndSessions();
  const others = sessions.data?.sessions.filter((session) => !session.current) ?? [];

  function endOne(session: SessionListItem) {
    end.mutate(session.id, {
      // Ending this very session is a sign-out: a full navigation, so nothing of it stays in memory.
      // eslint-disable-next-line @next/next/no-location-assign-relative-destination
      onSuccess: () => session.current && window.location.assign("/sign-in?reason=signed_out"),
    });
  }

  return (
    <div className="space-y-6">
      <header>
        <h1 className="text-xl font-semibold">Sign-ins</h1>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Every device and browser where this API key is signed in to the dashboard. Signing one out ends it there at once.
        </p>
      </header>
      <Card>
        {sessions.isPending && <Skeleton lines={3} label="Loading sign-ins" />}
        {sessions.isError && <ErrorPanel error={sessions.error} onRetry={() => sessions.refetch()} />}
        {sessions.data && (
          <>
            <ul className="divide-y divide-slate-200 dark:divide-slate-800">
              {sessions.data.sessions.map((session) => (
                <SessionRow key={session.id} session={session} onEnd={() => endOne(session)} pending={end.isPending} />
              ))}
            </ul>
            <div className="mt-4 flex flex-wrap items-center gap-3 border-t border-slate-200 pt-4 dark:border-slate-800">
              <Button variant="danger" disabled={others.length === 0 || end.isPending} onClick={() => end.mutate(undefined)}>
                Sign out all other devices
              </Button>
              <p role="status" className="text-sm text-slate-600 dark:text-slate-400">
                {end.isSuccess && `${end.data.ended} other device${end.data.ended === 1 ? "" : "s"} signed out.`}
                {!end.isSuccess && others.length === 0 && "Signed in on no other device."}
              </p>
            </div>
            {end.isError && <ErrorPanel error={end.error} />}
          </>
        )}
      </Card>
    </div>
  );
}
