"use client";

import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { useStoreProfile } from "@/lib/queries/store";
import { interpretTimeZone, storeTypeTone } from "@/lib/store-locale";
import { Badge } from "@/components/ui/card";

/** The store's name line, shown above every store section. */
export function StoreHeader({ storeUrl }: { storeUrl: string }) {
  const organizationId = useSearchParams().get("organizationId") ?? undefined;
  const profile = useStoreProfile(storeUrl, organizationId);
  return (
    <div className="flex flex-wrap items-end justify-between gap-2">
      <div>
        <nav aria-label="Breadcrumb" className="text-sm text-slate-500 dark:text-slate-400">
          <Link
            href={organizationId ? `/context?organizationId=${encodeURIComponent(organizationId)}` : "/context"}
            className="hover:underline"
          >
            Organizations and stores
          </Link>
          <span aria-hidden="true"> / </span>
        </nav>
        <p className="break-all text-2xl font-semibold">{storeUrl}</p>
      </div>
      {profile.data && (
        <div className="flex max-w-full flex-wrap gap-2 wrap-anywhere" aria-label="Store profile summary">
          <Badge tone={storeTypeTone(profile.data.type)}>{profile.data.type}</Badge>
          <Badge>{profile.data.currency}</Badge>
          <Badge>{interpretTimeZone(profile.data.timezone).label}</Badge>
        </div>
      )}
    </div>
  );
}
