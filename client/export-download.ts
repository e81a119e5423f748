import { dashboardFetch } from "@/client/queries/api-client";
import { useState } from "react";
import type { z } from "zod";
import { formatNumber } from "@/shared/format";
import { EXPORT_MANIFEST_HEADER } from "@/shared/schemas/export-manifest";
import { dataRowCount, sha256Hex } from "@/shared/export-verify";

/** The file name the dashboard gave a download (`content-disposition`), or a fallback. */
function fileNameOf(response: Response, fallback: string): string {
  return /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? fallback;
}

function save(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const link = Object.assign(document.createElement("a"), { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the URL by now; freeing it later keeps slow browsers safe.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Fetches an export and saves it with its manifest, completed here with the SHA-256 and row count of the very bytes saved. */
async function downloadWithManifest<S extends z.ZodType<{ kind: string; sha256: string; row_count: number }>>(
  path: string,
  schema: S,
): Promise<z.infer<S>> {
  const response = await dashboardFetch(path, { accept: "text/csv" });
  const bytes = await response.arrayBuffer();
  const base = JSON.parse(decodeURIComponent(response.headers.get(EXPORT_MANIFEST_HEADER) ?? "null")) as unknown;
  const manifest = schema.parse({
    ...(base as object),
    sha256: await sha256Hex(bytes),
    row_count: dataRowCount(new TextDecoder().decode(bytes)),
  });
  const name = fileNameOf(response, `${manifest.kind}.csv`);
  save(new Blob([bytes], { type: "text/csv" }), name);
  save(new Blob([`${JSON.stringify(manifest, null, 2)}\n`], { type: "application/json" }), name.replace(/\.csv$/, ".manifest.json"));
  return manifest;
}

type ManifestSchema = z.ZodType<{ kind: string; sha256: string; row_count: number }>;

/** An export button's state: which download runs, what the last one saved, or why it failed. */
export function useDownload<K extends string>() {
  const [state, setState] = useState<{ pending?: K; done?: string; error?: unknown }>({});
  const run = async (kind: K, path: string, schema: ManifestSchema) => {
    setState({ pending: kind });
    try {
      const manifest = await downloadWithManifest(path, schema);
      setState({
        done: `Saved ${formatNumber(manifest.row_count)} rows and the file's manifest (SHA-256 ${manifest.sha256.slice(0, 12)}…).`,
      });
    } catch (error) {
      setState({ error });
    }
  };
  return { ...state, run };
}
