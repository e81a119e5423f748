"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useStoreContext } from "@/client/queries/context";
import type { Context } from "@/shared/schemas/context";
import { Card } from "@/components/ui/card";
import { ErrorPanel } from "@/components/ui/error-panel";
import { EmptyState, Skeleton } from "@/components/ui/states";
import { OrganizationCard } from "./organization-card";
import { UserCard } from "./user-card";

function OrganizationSwitcher({ context, selected }: { context: Context; selected?: string }) {
  const router = useRouter();
  return (
    <div className="flex flex-wrap items-center gap-2">
      <label htmlFor="organization-switcher" className="text-sm font-medium">
        Organization
      </label>
      <select
        id="organization-switcher"
        value={selected ?? ""}
        onChange={(event) => {
          const value = event.target.value;
          router.push(value ? `/context?organizationId=${encodeURIComponent(value)}` : "/context");
        }}
        className="rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-900"
      >
        <option value="">The key&apos;s own organization</option>
        {context.organizations.map((organization) => (
          <option key={organization.id} value={organization.id}>
            {organization.name}
          </option>
        ))}
      </select>
    </div>
  );
}

export function ContextView({ organizationId }: { organizationId?: string }) {
  // The switcher lists what the key reaches by default; the body shows the chosen organization.
  const defaultContext = useStoreContext();
  const context = useStoreContext(organizationId);

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold">Organizations and stores</h1>
          <Link href="/stores" className="text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300">
            All stores: every store&apos;s figures on one page
          </Link>
        </div>
        {defaultContext.data && <OrganizationSwitcher context={defaultContext.data} selected={organizationId} />}
      </div>
      {context.isPending ? (
        <Card>
          <Skeleton lines={5} label="Loading your organizations and stores" />
        </Card>
      ) : context.isError ? (
        <ErrorPanel error={context.error} onRetry={() => context.refetch()} />
      ) : (
        <>
          <UserCard user={context.data.user} />
          {context.data.organizations.length === 0 && (
            <EmptyState title="No organizations">
              This key does not reach any organization. Sign in with a key created for a store.
            </EmptyState>
          )}
          {context.data.organizations.map((organization) => (
            <OrganizationCard key={organization.id} organization={organization} organizationId={organizationId} />
          ))}
        </>
      )}
    </div>
  );
}
