"use client";

import { requestIdOf } from "@/client/queries/api-client";
import { useCatalogConnections, useStoreProfile } from "@/client/queries/store";
import { interpretCurrency, interpretTimeZone } from "@/shared/store-locale";
import { Card, DescriptionList } from "@/components/ui/card";
import { ErrorPanel } from "@/components/ui/error-panel";
import { FallbackNote } from "@/components/ui/fallback-note";
import { CatalogCard } from "./catalog-card";
import { EmptyState, Skeleton } from "@/components/ui/states";
import { Breakable } from "@/components/ui/breakable";
import { PacingCard } from "@/components/metrics/pacing-card";
import { StoreHealth } from "./store-health";
import { StorePulse } from "./store-pulse";
import { RollupLine } from "./rollup-line";

export function StoreOverview({ storeUrl, organizationId }: { storeUrl: string; organizationId?: string }) {
  const profile = useStoreProfile(storeUrl, organizationId);
  const catalogs = useCatalogConnections(storeUrl, organizationId);
  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
      {/* The overview opens on numbers: the last week first, then what keeps them flowing. */}
      {profile.isSuccess && (
        <div className="space-y-6 lg:col-span-2">
          <RollupLine storeUrl={storeUrl} organizationId={organizationId} timeZone={interpretTimeZone(profile.data.timezone).zone} />
          <StorePulse
            storeUrl={storeUrl}
            organizationId={organizationId}
            timeZone={interpretTimeZone(profile.data.timezone).zone}
            currency={profile.data.currency}
          />
          <PacingCard
            storeUrl={storeUrl}
            organizationId={organizationId}
            zone={interpretTimeZone(profile.data.timezone).zone}
            currency={profile.data.currency}
          />
          <StoreHealth storeUrl={storeUrl} organizationId={organizationId} />
        </div>
      )}
      <Card
        title={<span>Store profile</span>}
        boundary={{ name: "The store profile", requestId: requestIdOf(profile.data), resetKey: profile.data }}
      >
        {profile.isPending ? (
          <Skeleton label="Loading the store profile" />
        ) : profile.isError ? (
          <ErrorPanel error={profile.error} onRetry={() => profile.refetch()} />
        ) : (
          <DescriptionList
            items={[
              { label: "Store URL", value: <Breakable text={profile.data.url} /> },
              { label: "Store ID", value: <code className="font-mono text-xs">{profile.data.id}</code> },
              { label: "Type", value: profile.data.type },
              {
                label: "Currency",
                value: (
                  <>
                    {profile.data.currency}
                    <FallbackNote text={interpretCurrency(profile.data.currency).fallbackNote} />
                  </>
                ),
              },
              {
                label: "Time zone",
                value: (
                  <>
                    {profile.data.timezone}
                    <FallbackNote text={interpretTimeZone(profile.data.timezone).fallbackNote} />
                  </>
                ),
              },
            ]}
          />
        )}
      </Card>
      <Card
        title="Catalog connections"
        boundary={{ name: "The catalog connections", requestId: requestIdOf(catalogs.data), resetKey: catalogs.data }}
      >
        {catalogs.isPending ? (
          <Skeleton label="Loading catalog connections" />
        ) : catalogs.isError ? (
          <ErrorPanel error={catalogs.error} onRetry={() => catalogs.refetch()} />
        ) : catalogs.data.length === 0 ? (
          <EmptyState title="No catalog connections">This store does not synchronize its catalog with any platform yet.</EmptyState>
        ) : (
          <ul className="space-y-3" aria-label="Catalog connections">
            {catalogs.data.map((connection, index) => (
              <li key={String(connection.id ?? index)} className="rounded-lg border border-slate-200 p-3 dark:border-slate-800">
                <CatalogCard catalog={connection} timeZone={profile.data?.timezone} />
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
