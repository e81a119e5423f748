"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import { usePathname } from "next/navigation";
import type { SessionSummaryView } from "@/shared/schemas/session";
import { useSignOut } from "@/client/queries/session";
import { Button } from "@/components/ui/button";
import { InboxLink } from "./inbox-link";
import { OperationsLinksWithoutScript, OperationsMenu } from "./operations-menu";
import { useCurrentStore } from "./current-store";
import { StoreSwitcher } from "./store-switcher";
import { ShortcutsHelp } from "./shortcuts-help";

function HeaderLink({ href, current, children }: { href: string; current: boolean; children: ReactNode }) {
  return (
    <Link
      href={href}
      aria-current={current ? "page" : undefined}
      className="text-sm font-medium text-slate-600 hover:text-slate-900 aria-[current=page]:text-indigo-700 dark:text-slate-300 dark:hover:text-white dark:aria-[current=page]:text-indigo-300"
    >
      {children}
    </Link>
  );
}

export function AppHeader({ session }: { session: SessionSummaryView }) {
  const signOut = useSignOut();
  const pathname = usePathname();
  const store = useCurrentStore(session.stores.map((reachable) => reachable.url));
  const storeBase = store ? `/stores/${encodeURIComponent(store)}` : "";
  const ring = new Set([...session.stores.map((reachable) => reachable.url), ...(session.keys ?? []).flatMap((key) => key.storeUrls)]);
  // The organization of the store in view (the key that reaches it), not the signed-in key's.
  const organization = (store && session.keys?.find((key) => key.storeUrls.includes(store))?.organization) || session.organization;
  return (
    <header className="border-b border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:rounded focus:bg-white focus:p-2 dark:focus:bg-slate-900"
      >
        Skip to content
      </a>
      {/* On a phone: the product's name and Sign out on the first line, the links on a line of their own. */}
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3">
        <Link href="/context" className="font-semibold text-indigo-700 dark:text-indigo-300">
          Store analytics
        </Link>
        <nav aria-label="Main" className="order-last flex w-full flex-wrap items-center gap-x-4 gap-y-1 sm:order-none sm:w-auto">
          {ring.size >= 2 && (
            <HeaderLink href="/stores" current={pathname === "/stores"}>
              All stores
            </HeaderLink>
          )}
          {store && (
            <>
              <HeaderLink href={storeBase} current={pathname === storeBase}>
                Overview
              </HeaderLink>
              <HeaderLink href={`${storeBase}/products`} current={pathname === `${storeBase}/products`}>
                Product metrics
              </HeaderLink>
            </>
          )}
          <StoreSwitcher stores={[...ring]} current={store} />
          <InboxLink current={pathname === "/inbox"} />
          <OperationsMenu pathname={pathname} />
          <OperationsLinksWithoutScript />
        </nav>
        <div className="ml-auto flex min-w-0 items-center gap-3 text-sm">
          {/* Names can be of any length: one line each, in full on hover. */}
          <span className="hidden min-w-0 max-w-md text-right sm:block">
            <span className="block truncate font-medium" title={`${session.user.name}${organization ? ` · ${organization.name}` : ""}`}>
              <bdi>{session.user.name}</bdi>
              {organization && (
                <span className="font-normal text-slate-500 dark:text-slate-400" data-testid="header-organization">
                  {" "}
                  · <bdi>{organization.name}</bdi>
                </span>
              )}
            </span>
            <span className="block truncate text-xs text-slate-500 dark:text-slate-400">{session.user.email}</span>
          </span>
          <ShortcutsHelp />
          <Button variant="secondary" disabled={signOut.isPending} onClick={() => signOut.mutate()}>
            Sign out
          </Button>
        </div>
      </div>
    </header>
  );
}
