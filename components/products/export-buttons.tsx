"use client";

import Link from "next/link";
import type { MetricsFilters } from "@/shared/schemas/product-metrics-view";
import { exportPath } from "@/client/queries/product-metrics";
import { useDownload } from "@/client/export-download";
import { exportManifestSchema } from "@/shared/schemas/export-manifest";
import { ErrorPanel } from "@/components/ui/error-panel";

const buttonClass =
  "rounded-lg border border-slate-300 px-3 py-1.5 font-medium hover:bg-slate-50 disabled:cursor-wait disabled:opacity-60 dark:border-slate-700 dark:hover:bg-slate-800";

/** The two exports, each saved with its manifest, and the way to check one later. */
export function ExportButtons({
  storeUrl,
  organizationId,
  filters,
  table,
}: {
  storeUrl: string;
  organizationId?: string;
  filters: MetricsFilters;
  table: { q: string; sort: string; direction: string };
}) {
  const { pending, done, error, run: download } = useDownload<"products" | "rows">();
  const run = (kind: "products" | "rows") =>
    download(kind, exportPath(storeUrl, filters, kind, organizationId, table), exportManifestSchema);
  const verify = `/stores/${encodeURIComponent(storeUrl)}/verify${organizationId ? `?organizationId=${encodeURIComponent(organizationId)}` : ""}`;
  return (
    <div className="flex flex-col items-end gap-2">
      <div className="flex flex-wrap gap-2 text-sm">
        <button type="button" className={buttonClass} disabled={pending !== undefined} onClick={() => void run("products")}>
          {pending === "products" ? "Exporting the table…" : "Export table (CSV)"}
        </button>
        <button type="button" className={buttonClass} disabled={pending !== undefined} onClick={() => void run("rows")}>
          {pending === "rows" ? "Exporting the rows…" : "Export raw rows (CSV)"}
        </button>
        <Link href={verify} className="self-center font-medium text-indigo-700 underline dark:text-indigo-300">
          Verify an export
        </Link>
      </div>
      <p role="status" className="text-xs text-slate-600 dark:text-slate-400">
        {done}
      </p>
      {error !== undefined && <ErrorPanel error={error} />}
    </div>
  );
}
