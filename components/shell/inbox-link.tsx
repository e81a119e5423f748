"use client";

import Link from "next/link";
import { useInbox } from "@/client/queries/notifications";

/** "Inbox" in the header, with the unread count as a badge (named for screen readers too). */
export function InboxLink({ current }: { current: boolean }) {
  const unread = useInbox().data?.unread ?? 0;
  return (
    <Link
      href="/inbox"
      aria-current={current ? "page" : undefined}
      aria-label={unread > 0 ? `Inbox, ${unread} unread` : "Inbox"}
      className="inline-flex items-center gap-1.5 text-sm font-medium text-slate-600 hover:text-slate-900 aria-[current=page]:text-indigo-700 dark:text-slate-300 dark:hover:text-white dark:aria-[current=page]:text-indigo-300"
    >
      Inbox
      {unread > 0 && (
        <span data-testid="inbox-badge" className="rounded-full bg-rose-600 px-1.5 py-0.5 text-xs font-semibold leading-none text-white">
          {unread > 99 ? "99+" : unread}
        </span>
      )}
    </Link>
  );
}
