"use client";

import { useState, type FormEvent } from "react";
import { buildPath } from "@/shared/url";
import { exportManifestSchema, type ExportManifest } from "@/shared/schemas/export-manifest";
import { changesBetween, sha256Hex, type Change, type Figures } from "@/shared/export-verify";
import { formatCurrency, formatDateTime, formatNumber } from "@/shared/format";
import { dashboardFetch } from "@/client/queries/api-client";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ErrorPanel } from "@/components/ui/error-panel";

interface Verdict {
  manifest: ExportManifest;
  /** The file is byte for byte the one the manifest describes. */
  intact: boolean;
  /** The figures the dashboard gives now are the file's. */
  stillMatches: boolean;
  changes: Change[];
}

/** The manifest's request, only if it is this store's export route: a manifest cannot send the page elsewhere. */
function exportRequestOf(manifest: ExportManifest, storeUrl: string): string {
  const expected = buildPath(["api", "stores", storeUrl, "product-metrics", "export"], {});
  if (manifest.store_url !== storeUrl || manifest.endpoint !== expected)
    throw new Error(`This manifest describes an export of ${manifest.store_url}, not of this store.`);
  return buildPath(["api", "stores", storeUrl, "product-metrics", "export"], manifest.parameters);
}

async function verify(file: File, manifestFile: File, storeUrl: string, organizationId?: string): Promise<Verdict> {
  let manifest: ExportManifest;
  try {
    manifest = exportManifestSchema.parse(JSON.parse(await manifestFile.text()));
  } catch {
    throw new Error("The second file is not an export manifest of this dashboard (a .manifest.json file saved with an export).");
  }
  const bytes = await file.arrayBuffer();
  const intact = (await sha256Hex(bytes)) === manifest.sha256;
  const again = await dashboardFetch(exportRequestOf(manifest, storeUrl), { accept: "text/csv", organizationId });
  const fresh = await again.arrayBuffer();
  const stillMatches = (await sha256Hex(fresh)) === manifest.sha256;
  const decode = (buffer: ArrayBuffer) => new TextDecoder().decode(buffer);
  const changes = stillMatches ? [] : changesBetween(decode(bytes), decode(fresh), manifest.kind);
  return { manifest, intact, stillMatches, changes };
}

function FiguresCell({ figures, currency }: { figures: Figures | null; currency: string }) {
  if (!figures) return <td className="py-1 pr-3 text-slate-500 dark:text-slate-400">none</td>;
  return (
    <td className="py-1 pr-3 whitespace-nowrap tabular-nums">
      {formatNumber(figures.orders)} orders · {formatCurrency(figures.revenue, currency)}
    </td>
  );
}

function VerdictView({ verdict }: { verdict: Verdict }) {
  const { manifest, intact, stillMatches, changes } = verdict;
  const currency = manifest.currency.used;
  const what = manifest.kind === "rows" ? "day" : "product";
  return (
    <div role="status" className="space-y-3 text-sm" data-testid="verdict">
      <p className={intact ? "text-emerald-800 dark:text-emerald-300" : "text-rose-800 dark:text-rose-300"}>
        {intact
          ? `The file is exactly the one exported on ${formatDateTime(manifest.exported_at, manifest.time_zone.store_value)} (same SHA-256, ${formatNumber(manifest.row_count)} rows).`
          : "The file is not the one this manifest describes: it was changed after the export, or belongs to another export."}
      </p>
      <p className={stillMatches ? "font-medium text-emerald-800 dark:text-emerald-300" : "font-medium text-amber-800 dark:text-amber-300"}>
        {stillMatches
          ? "The figures still match: the dashboard makes the same file from the analytics service today."
          : changes.length === 0
            ? "The file made today differs from the exported one, but every figure sums the same (only the order or the text changed)."
            : `The figures changed for ${formatNumber(changes.length)} ${what}${changes.length === 1 ? "" : "s"}.`}
      </p>
      {changes.length > 0 && (
        <table className="text-left">
          <caption className="sr-only">
            What changed since the export, {what} by {what}
          </caption>
          <thead className="text-xs text-slate-600 uppercase dark:text-slate-400">
            <tr>
              <th scope="col" className="py-1 pr-3">
                {what === "day" ? "Day" : "Product"}
              </th>
              <th scope="col" className="py-1 pr-3">
                In the file
              </th>
              <th scope="col" className="py-1 pr-3">
                Now
              </th>
            </tr>
          </thead>
          <tbody>
            {changes.map((change) => (
              <tr key={change.key} data-testid="changed">
                <th scope="row" className="py-1 pr-3 font-medium">
                  {change.label}
                </th>
                <FiguresCell figures={change.before} currency={currency} />
                <FiguresCell figures={change.after} currency={currency} />
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

/** "Verify": a file and its manifest in; whether the file is intact and whether its figures still hold out. */
export function VerifyExport({ storeUrl, organizationId }: { storeUrl: string; organizationId?: string }) {
  const [verdict, setVerdict] = useState<Verdict>();
  const [error, setError] = useState<unknown>();
  const [pending, setPending] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const [file, manifest] = [form.get("file"), form.get("manifest")];
    if (!(file instanceof File) || !(manifest instanceof File) || !file.size || !manifest.size) return;
    setPending(true);
    setError(undefined);
    setVerdict(undefined);
    try {
      setVerdict(await verify(file, manifest, storeUrl, organizationId));
    } catch (caught) {
      setError(caught);
    } finally {
      setPending(false);
    }
  };
  const field =
    "block w-full text-sm file:mr-3 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 file:py-1.5 dark:file:bg-slate-800";
  return (
    <Card title="Verify an export">
      <p className="mb-4 text-sm text-slate-700 dark:text-slate-300">
        Give an exported CSV file and the manifest saved with it. The dashboard checks that the file is the one exported, asks the analytics
        service for the same figures again, and says whether they still match, and what changed if not.
      </p>
      <form method="post" onSubmit={(event) => void submit(event)} className="space-y-4">
        <div>
          <label htmlFor="verify-file" className="mb-1 block text-sm font-medium">
            Exported file (.csv)
          </label>
          <input id="verify-file" name="file" type="file" accept=".csv,text/csv" required className={field} />
        </div>
        <div>
          <label htmlFor="verify-manifest" className="mb-1 block text-sm font-medium">
            Its manifest (.manifest.json)
          </label>
          <input id="verify-manifest" name="manifest" type="file" accept=".json,application/json" required className={field} />
        </div>
        <Button type="submit" disabled={pending}>
          {pending ? "Verifying…" : "Verify"}
        </Button>
      </form>
      <div className="mt-4">
        {verdict && <VerdictView verdict={verdict} />}
        {error !== undefined && <ErrorPanel error={error} />}
      </div>
    </Card>
  );
}
