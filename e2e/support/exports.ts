import { readFile } from "node:fs/promises";
import type { Download, Page } from "@playwright/test";
import type { ExportManifest } from "@/shared/schemas/export-manifest";

/** Clicks an export button and reads the two files it saves: the CSV and its manifest. */
export async function exportWithManifest(page: Page, button: string) {
  const downloads: Download[] = [];
  const both = new Promise<void>((resolve) =>
    page.on("download", (download) => {
      downloads.push(download);
      if (downloads.length === 2) resolve();
    }),
  );
  await page.getByRole("button", { name: button }).click();
  await both;
  const [file, manifest] = downloads as [Download, Download];
  return {
    name: file.suggestedFilename(),
    manifestName: manifest.suggestedFilename(),
    csvPath: (await file.path())!,
    manifestPath: (await manifest.path())!,
    csv: await readFile((await file.path())!, "utf8"),
    manifest: JSON.parse(await readFile((await manifest.path())!, "utf8")) as ExportManifest,
  };
}
