/**
 * docs/architecture.md against the tree: the folders it lists under `server/` are exactly the
 * folders there, and `server/db` holds the database's own machinery, no feature's repository.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "@/test/processes";

const doc = readFileSync(join(ROOT, "docs/architecture.md"), "utf8");
const folders = (dir: string) =>
  readdirSync(join(ROOT, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

/** The database itself: connection, transactions, reach binding, migrations, locks. */
const DATABASE_FILES = [
  "data-dir-lock.ts",
  "database.ts",
  "listen.ts",
  "migrate.ts",
  "open-failure.ts",
  "pglite-initdb.mjs",
  "pglite-options.ts",
  "reach.ts",
  "store-cap.ts",
];

describe("the layout in docs/architecture.md", () => {
  it("lists every folder of server/, and only those", () => {
    const listed = [...doc.matchAll(/^ {2}- `([a-z-]+)\/`:/gm)].map((match) => match[1]!).sort();
    expect(listed).toEqual(folders("server"));
  });

  it("keeps server/db to the database's own machinery", () => {
    const files = readdirSync(join(ROOT, "server/db"), { withFileTypes: true })
      .filter((entry) => entry.isFile() && !entry.name.includes(".test."))
      .map((entry) => entry.name)
      .sort();
    expect(files).toEqual(DATABASE_FILES);
    expect(folders("server/db")).toEqual(["migrations"]);
  });
});
