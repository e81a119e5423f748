"use client";

import { useStoreProfile } from "@/client/queries/store";
import { Breakable } from "@/components/ui/breakable";

/**
 * A store named as people know it: its name first (from the store's profile), its address
 * beside it. The address alone stands until the name is read, or when it cannot be.
 */
export function StoreName({ storeUrl, organizationId }: { storeUrl: string; organizationId?: string }) {
  const name = useStoreProfile(storeUrl, organizationId).data?.name;
  if (!name) return <Breakable text={storeUrl} />;
  return (
    <span className="inline-flex flex-wrap items-baseline gap-x-2">
      <bdi>{name}</bdi>
      <span className="text-xs font-normal text-slate-500 dark:text-slate-400">
        <Breakable text={storeUrl} />
      </span>
    </span>
  );
}
