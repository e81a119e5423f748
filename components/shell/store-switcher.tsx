"use client";

import { useQueries } from "@tanstack/react-query";
import { usePathname, useRouter } from "next/navigation";
import { storeProfileQueryOptions } from "@/client/queries/store";

/** The same section of another store: "/stores/a/alerts" becomes "/stores/b/alerts"; elsewhere, the store's overview. */
export function switchedPath(pathname: string, storeUrl: string): string {
  const target = `/stores/${encodeURIComponent(storeUrl)}`;
  const match = /^\/stores\/[^/]+(\/(?:products|tracking|alerts|digests|data-changes|verify|campaigns\/clone))?/.exec(pathname);
  return match ? `${target}${match[1] ?? ""}` : target;
}

/**
 * The header's store switcher: every store of the key ring, by name, the one in view chosen.
 * Picking one opens the same section of that store (its overview from pages of no store).
 */
export function StoreSwitcher({ stores, current }: { stores: readonly string[]; current: string | undefined }) {
  const router = useRouter();
  const pathname = usePathname();
  const profiles = useQueries({ queries: stores.map((storeUrl) => ({ ...storeProfileQueryOptions(storeUrl), retry: false })) });
  if (stores.length < 2) return null;
  return (
    <span className="flex items-center gap-2 text-sm">
      <label htmlFor="store-switcher" className="font-medium text-slate-600 dark:text-slate-300">
        Go to store
      </label>
      <select
        id="store-switcher"
        value={current ?? ""}
        onChange={(event) => router.push(switchedPath(pathname, event.target.value))}
        className="max-w-[14rem] rounded-lg border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-950"
      >
        {current === undefined && <option value="">Choose a store</option>}
        {stores.map((storeUrl, index) => {
          const name = profiles[index]?.data?.name;
          return (
            <option key={storeUrl} value={storeUrl}>
              {name ? `${name} (${storeUrl})` : storeUrl}
            </option>
          );
        })}
      </select>
    </span>
  );
}
