"use client";

import type { ReachStoreItem } from "@/shared/schemas/reach";

/** How an organization-wide page names a store of the reach: its name if known, else its URL. */
export function storeName(stores: readonly ReachStoreItem[] | undefined, url: string): string {
  return stores?.find((store) => store.url === url)?.name ?? url;
}

/**
 * The store filter of an organization-wide page (Inbox, Runs, Outbox): shown only when the
 * session reaches several stores; "All stores" is no filter.
 */
export function StoreFilter({
  id,
  stores,
  value,
  onChange,
}: {
  id: string;
  stores: readonly ReachStoreItem[] | undefined;
  value: string | undefined;
  onChange: (store: string | undefined) => void;
}) {
  if (!stores || stores.length < 2) return null;
  return (
    <p className="flex flex-wrap items-center gap-2 text-sm">
      <label htmlFor={id} className="font-medium">
        Store
      </label>
      <select
        id={id}
        value={value ?? ""}
        onChange={(event) => onChange(event.target.value || undefined)}
        className="rounded-md border border-slate-300 bg-white px-2 py-1 dark:border-slate-700 dark:bg-slate-900"
      >
        <option value="">All stores</option>
        {stores.map((store) => (
          <option key={store.url} value={store.url}>
            {store.name}
          </option>
        ))}
      </select>
    </p>
  );
}
