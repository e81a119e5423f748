import { describe, expect, it, vi } from "vitest";
import { openForSuite, storageBackends } from "@/test/databases";
import { DatabaseUnavailable } from "@/server/db/database";

describe("DatabaseUnavailable", () => {
  // The production build bundles this module into several chunks; the process's database handle throws the copy of
  // the chunk that opened it, and a route in another chunk must still answer 503 rather than 500.
  it("is recognized across copies of the module", async () => {
    vi.resetModules();
    const { DatabaseUnavailable: OtherCopy } = await import("@/server/db/database");
    expect(OtherCopy).not.toBe(DatabaseUnavailable);
    expect(new OtherCopy()).toBeInstanceOf(DatabaseUnavailable);
    expect(new DatabaseUnavailable()).toBeInstanceOf(OtherCopy);
  });

  it("is not claimed by other errors", () => {
    expect(new Error("The dashboard's database is unavailable.")).not.toBeInstanceOf(DatabaseUnavailable);
    expect(Object.assign(new Error("closed"), { code: "database_unavailable", status: 503 })).not.toBeInstanceOf(DatabaseUnavailable);
    expect(null).not.toBeInstanceOf(DatabaseUnavailable);
  });
});

describe.each(storageBackends())("a transaction on %s", (backend) => {
  // pg 8 warns (and pg 9 refuses) when a query is sent while its connection is busy: test/database-setup.ts fails the file.
  it("runs statements sent together one after another, each with its own answer", async () => {
    const { db, close } = await openForSuite(backend);
    try {
      const answers = await db.transaction((tx) =>
        Promise.all([1, 2, 3, 4].map((n) => tx.query<{ n: number }>("select $1::int as n, pg_sleep(0.01)", [n]))),
      );
      expect(answers.map(([row]) => row!.n)).toEqual([1, 2, 3, 4]);
    } finally {
      await close();
    }
  });
});
