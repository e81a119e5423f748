import Link from "next/link";
import type { Organization } from "@/lib/schemas/context";
import { formatDateTime } from "@/lib/format";
import { Badge, Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/states";

export function OrganizationCard({ organization, organizationId }: { organization: Organization; organizationId?: string }) {
  const suffix = organizationId ? `?organizationId=${encodeURIComponent(organizationId)}` : "";
  return (
    <Card
      boundary={{ name: "This organization", resetKey: organization }}
      title={
        <span className="flex flex-wrap items-center gap-2 wrap-anywhere">
          <bdi>{organization.name}</bdi> <Badge tone="info">{organization.role}</Badge>
        </span>
      }
    >
      <p className="mb-4 text-sm text-slate-600 wrap-anywhere dark:text-slate-400">
        <span className="font-mono">{organization.slug}</span> · ID <span className="font-mono">{organization.id}</span> · created{" "}
        {formatDateTime(organization.createdAt)}
      </p>
      {organization.stores.length === 0 ? (
        <EmptyState title="No stores">This key does not reach any store of this organization.</EmptyState>
      ) : (
        <div className="relative overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Stores of {organization.name}</caption>
            <thead className="text-xs uppercase tracking-wide text-slate-500 dark:text-slate-400">
              <tr>
                <th scope="col" className="py-2 pr-4">
                  Store
                </th>
                <th scope="col" className="py-2 pr-4">
                  Type
                </th>
                <th scope="col" className="py-2 pr-4">
                  Currency
                </th>
                <th scope="col" className="py-2 pr-4">
                  Created
                </th>
                <th scope="col" className="py-2 pr-4">
                  Updated
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
              {organization.stores.map((store) => (
                <tr key={store.id}>
                  <td className="max-w-md py-2 pr-4 wrap-anywhere">
                    <Link
                      href={`/stores/${encodeURIComponent(store.url)}${suffix}`}
                      className="font-medium text-indigo-700 hover:underline dark:text-indigo-300"
                    >
                      {store.url}
                    </Link>
                  </td>
                  <td className="max-w-40 py-2 pr-4 wrap-anywhere">{store.type}</td>
                  <td className="max-w-40 py-2 pr-4 wrap-anywhere">{store.currency}</td>
                  <td className="py-2 pr-4 whitespace-nowrap">{formatDateTime(store.createdAt)}</td>
                  <td className="py-2 pr-4 whitespace-nowrap">{formatDateTime(store.updatedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
