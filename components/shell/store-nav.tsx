"use client";

import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";

function storeSections(storeUrl: string) {
  const base = `/stores/${encodeURIComponent(storeUrl)}`;
  return [
    { href: base, label: "Overview" },
    { href: `${base}/products`, label: "Product metrics" },
    { href: `${base}/tracking`, label: "Tracking connections" },
    { href: `${base}/campaigns/clone`, label: "Clone a campaign" },
    { href: `${base}/digests`, label: "Digests" },
    { href: `${base}/alerts`, label: "Alerts" },
    { href: `${base}/data-changes`, label: "Data changes" },
  ];
}

/** The store's sections, wrapping onto a second line on a phone so that no tab hides; the organization chosen on the context page travels along. */
export function StoreNav({ storeUrl }: { storeUrl: string }) {
  const pathname = usePathname();
  const organizationId = useSearchParams().get("organizationId");
  const suffix = organizationId ? `?organizationId=${encodeURIComponent(organizationId)}` : "";
  return (
    <nav aria-label="Store sections" className="border-b border-slate-200 dark:border-slate-800">
      <ul className="-mb-px flex flex-wrap gap-x-1">
        {storeSections(storeUrl).map((section) => {
          const current = pathname === section.href;
          return (
            <li key={section.href}>
              <Link
                href={`${section.href}${suffix}`}
                aria-current={current ? "page" : undefined}
                className={`block whitespace-nowrap border-b-2 px-3 py-2 text-sm font-medium ${
                  current
                    ? "border-indigo-600 text-indigo-700 dark:border-indigo-400 dark:text-indigo-300"
                    : "border-transparent text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-slate-100"
                }`}
              >
                {section.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
