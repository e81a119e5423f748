import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { initDataDirOutOfProcess } from "@/server/db/pglite-options";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
const newFolder = () => {
  const folder = mkdtempSync(join(tmpdir(), "dash-datadir-"));
  folders.push(folder);
  return folder;
};

it("makes a database in a folder that holds only other embedded databases (the journeys keep theirs in .data/e2e-*)", async () => {
  const dataDir = newFolder();
  mkdirSync(join(dataDir, "e2e-3100"));
  writeFileSync(join(dataDir, "e2e-3100", "PG_VERSION"), "17\n");
  await initDataDirOutOfProcess(dataDir);
  expect(existsSync(join(dataDir, "PG_VERSION"))).toBe(true);
  expect(existsSync(join(dataDir, "e2e-3100", "PG_VERSION"))).toBe(true);
}, 60_000);

it("refuses a folder that holds someone else's files, naming them", async () => {
  const dataDir = newFolder();
  writeFileSync(join(dataDir, "notes.txt"), "not a database");
  await expect(initDataDirOutOfProcess(dataDir)).rejects.toThrow(/holds files \(notes\.txt\) but no database/);
  expect(existsSync(join(dataDir, "PG_VERSION"))).toBe(false);
});
