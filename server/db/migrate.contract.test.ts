import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openForSuite, storageBackends } from "@/test/databases";
import type { Db } from "@/server/db/database";
import { DatabaseAhead, migrate, migrationFiles, migrationsDir } from "@/server/db/migrate";

/**
 * An older build against a newer database works fully or refuses (docs/operations.md, "Upgrade
 * and rollback"): each migration records the oldest build it keeps working, and a build refuses
 * a database holding a migration it does not know unless that migration names it, or an older build.
 */
const files = migrationFiles();
const newest = files.at(-1)!.version;

describe.each(storageBackends())("migrations ahead of the build on %s", (backend) => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => ({ db, close } = await openForSuite(backend)));
  afterAll(() => close());

  const future = async (version: string, oldestBuild: string | null, run: () => Promise<void>) => {
    await db.query("insert into schema_migrations (version, oldest_build) values ($1, $2)", [version, oldestBuild]);
    try {
      await run();
    } finally {
      await db.query("delete from schema_migrations where version = $1", [version]);
    }
  };

  it("records, for each migration that says so, the oldest build it keeps working", async () => {
    const rows = await db.query<{ version: string; oldestBuild: string | null }>(
      `select version, oldest_build as "oldestBuild" from schema_migrations order by version`,
    );
    const declared = files.filter((file) => file.declared);
    expect(declared.length).toBeGreaterThan(0);
    expect(rows.filter((row) => row.oldestBuild !== null)).toEqual(
      declared.map((file) => ({ version: file.version, oldestBuild: file.oldestBuild })),
    );
  });

  it("keeps working on a newer migration that names this build, or an older one, as still working", async () => {
    await future("9998_future_expand", newest, async () => expect(await migrate(db)).toEqual([]));
    await future("9998_future_expand", files[0]!.version, async () => expect(await migrate(db)).toEqual([]));
  });

  it("refuses, applying nothing, a newer migration that names only newer builds, or nothing, in the operator's words", async () => {
    const words = `the database is at 9999_future_contract, this build knows up to ${newest}: start the newer build, or restore the backup taken before migrating`;
    await future("9999_future_contract", "9999_future_contract", async () => {
      await expect(migrate(db)).rejects.toThrow(new DatabaseAhead("9999_future_contract", newest));
      await expect(migrate(db)).rejects.toThrow(words);
    });
    // Recorded by a build that said nothing about older builds: this build cannot judge it, so it refuses.
    await future("9999_future_contract", null, async () => await expect(migrate(db)).rejects.toThrow(words));
    expect(await migrate(db)).toEqual([]);
  });
});

describe("the migrations' own promise", () => {
  const firstDeclared = files.findIndex((file) => file.declared);

  it("says, from the first migration that does on, what each one keeps working: expand, or the oldest build", () => {
    expect(firstDeclared).toBeGreaterThanOrEqual(0);
    for (const file of files.slice(firstDeclared))
      expect(file.declared, `${file.version} names no "-- Upgrade:" on its first line`).toBe(true);
  });

  it("drops, renames, retypes or forces nothing in a migration that says it only expands", () => {
    // What a build before the migration may still use: a drop, a rename, a changed type or a new
    // NOT NULL it does not fill, a replaced key, or row-level security forced on a table it reads.
    const contracting =
      /\b(drop\s+(table|column|index|view|function|trigger|constraint|policy)|rename\b|alter\s+column\s+\S+\s+(type|set\s+not\s+null)|force\s+row\s+level\s+security)/i;
    for (const file of files.slice(firstDeclared)) {
      // A function's body runs only when called: dashboard_store_table (0029) forces row-level
      // security on the table it names, which an expanding migration may only name once it created it.
      const sql = readFileSync(join(migrationsDir(), `${file.version}.sql`), "utf8")
        .replace(/--.*$/gm, "")
        .replace(/create\s+(or\s+replace\s+)?function[\s\S]*?\$(\w*)\$[\s\S]*?\$\2\$/gi, "");
      if (file.sql.startsWith("-- Upgrade: expand")) {
        expect(contracting.exec(sql)?.[0] ?? null, file.version).toBeNull();
        for (const [, table] of sql.matchAll(/dashboard_store_table\('([a-z_]+)'\)/g))
          expect(sql, `${file.version}: ${table}`).toMatch(new RegExp(`create table ${table}\\b`));
      } else expect(files.map((other) => other.version)).toContain(file.oldestBuild);
    }
  });
});
