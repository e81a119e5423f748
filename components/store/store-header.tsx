"use client";

import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { useStoreProfile } from "@/client/queries/store";
import { interpretTimeZone, storeTypeTone } from "@/shared/store-locale";
import { Badge } from "@/components/ui/card";
import { Breakable } from "@/components/ui/breakable";

/** The store's name line, shown above every store section: the page's one top-level heading. */
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
        <div className="flex flex-wrap items-baseline gap-x-3">
          <h1 className="break-words text-2xl font-semibold">{profile.data?.name ?? storeUrl}</h1>
          {profile.data?.name && (
            <p className="text-slate-600 dark:text-slate-400" data-testid="store-url">
              <Breakable text={storeUrl} />
            </p>
          )}
        </div>
      </div>
      {profile.data && (
        <div className="flex max-w-full flex-wrap gap-2" aria-label="Store profile summary">
          <Badge tone={storeTypeTone(profile.data.type)}>{profile.data.type}</Badge>
          <Badge>{profile.data.currency}</Badge>
          <Badge>{interpretTimeZone(profile.data.timezone).label}</Badge>
        </div>
      )}
    </div>
  );
}
