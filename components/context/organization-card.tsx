import Link from "next/link";
import type { Organization } from "@/shared/schemas/context";
import { formatDateTime } from "@/shared/format";
import { StoreTime } from "@/components/ui/times";
import { Badge, Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/states";
import { Breakable } from "@/components/ui/breakable";
import { StoreName } from "@/components/store/store-name";
import { StoreWeek } from "./store-week";
import { ColumnHeadings } from "@/components/ui/column-headings";

export function OrganizationCard({ organization, organizationId }: { organization: Organization; organizationId?: string }) {
  const suffix = organizationId ? `?organizationId=${encodeURIComponent(organizationId)}` : "";
  return (
    <Card
      boundary={{ name: "This organization", resetKey: organization }}
      title={
        <span className="flex flex-wrap items-center gap-2">
          <bdi>{organization.name}</bdi> <Badge tone="info">{organization.role}</Badge>
        </span>
      }
    >
      <p className="mb-4 text-sm text-slate-600 dark:text-slate-400">
        <Breakable className="font-mono" text={organization.slug} /> · ID <Breakable className="font-mono" text={organization.id} /> ·
        created {formatDateTime(organization.createdAt, "UTC")}
      </p>
      {organization.stores.length === 0 ? (
        <EmptyState title="No stores">This key does not reach any store of this organization.</EmptyState>
      ) : (
        <div className="relative overflow-x-auto">
          <table className="cards-on-phone w-full text-left text-sm">
            <caption className="sr-only">Stores of {organization.name}</caption>
            <thead className="text-xs uppercase tracking-wide text-slate-500 dark:text-slate-400">
              <ColumnHeadings headings={["Store", "Revenue, last 7 days", "Type", "Currency", "Created", "Updated"]} />
            </thead>
            <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
              {organization.stores.map((store) => (
                <tr key={store.id}>
                  <th scope="row" className="max-w-md py-2 pr-4 text-left font-normal">
                    <Link
                      href={`/stores/${encodeURIComponent(store.url)}${suffix}`}
                      className="font-medium text-indigo-700 hover:underline dark:text-indigo-300"
                    >
                      <StoreName storeUrl={store.url} organizationId={organizationId} />
                    </Link>
                  </th>
                  <td data-label="Revenue, last 7 days" className="py-2 pr-4">
                    <StoreWeek storeUrl={store.url} organizationId={organizationId} />
                  </td>
                  <td data-label="Type" className="max-w-40 py-2 pr-4">
                    {store.type}
                  </td>
                  <td data-label="Currency" className="max-w-40 py-2 pr-4">
                    {store.currency}
                  </td>
                  <td data-label="Created" className="py-2 pr-4 whitespace-nowrap">
                    <StoreTime at={store.createdAt} storeUrl={store.url} organizationId={organizationId} />
                  </td>
                  <td data-label="Updated" className="py-2 pr-4 whitespace-nowrap">
                    <StoreTime at={store.updatedAt} storeUrl={store.url} organizationId={organizationId} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
