import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openForSuite, storageBackends, unique } from "@/test/databases";
import type { Db } from "@/server/db/database";
import { createNote, deleteNote, notesInRange, updateNote } from "@/server/notes/notes";
import { clearRevenueTarget, revenueTargets, setRevenueTarget } from "@/server/notes/targets";

const T0 = new Date("2026-04-10T12:00:00Z");

describe.each(storageBackends())("notes and revenue targets on %s", (backend) => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => ({ db, close } = await openForSuite(backend)));
  afterAll(() => close());

  it("keeps notes per organization and store, finds those overlapping a range, and lets only their author change them", async () => {
    const scope = { organizationId: unique("org"), storeUrl: "shop.example" };
    const sale = await createNote(
      db,
      scope,
      { startDate: "2026-04-03", endDate: "2026-04-05", text: "Spring sale" },
      "ada@example.com",
      T0,
    );
    await createNote(db, scope, { startDate: "2026-03-01", endDate: "2026-03-01", text: "Old" }, "ada@example.com", T0);
    expect((await notesInRange(db, scope, { startDate: "2026-04-05", endDate: "2026-04-30" })).map((note) => note.text)).toEqual([
      "Spring sale",
    ]);
    expect(await notesInRange(db, { ...scope, storeUrl: "other.example" }, { startDate: "2026-01-01", endDate: "2026-12-31" })).toEqual([]);
    const edit = { startDate: "2026-04-03", endDate: "2026-04-06", text: "Spring sale, extended" };
    expect(await updateNote(db, scope, sale.id, "bob@example.com", edit, T0)).toBeNull();
    expect(await updateNote(db, { ...scope, organizationId: unique("org") }, sale.id, "ada@example.com", edit, T0)).toBeNull();
    expect((await updateNote(db, scope, sale.id, "ADA@example.com", edit, T0))!.text).toBe("Spring sale, extended");
    expect(await deleteNote(db, scope, sale.id, "bob@example.com")).toBe(false);
    expect(await deleteNote(db, scope, sale.id, "ada@example.com")).toBe(true);
  });

  it("keeps one target per month and channel, the latest one set, with who set it", async () => {
    const scope = { organizationId: unique("org"), storeUrl: "shop.example" };
    await setRevenueTarget(db, scope, { month: "2026-04", amount: 50_000, currency: "USD" }, "ada@example.com", T0);
    await setRevenueTarget(db, scope, { month: "2026-04", channel: "google", amount: 12_000.5, currency: "USD" }, "ada@example.com", T0);
    const later = new Date(T0.getTime() + 60_000);
    await setRevenueTarget(db, scope, { month: "2026-04", amount: 60_000, currency: "USD" }, "bob@example.com", later);
    expect(await revenueTargets(db, scope, "2026-04")).toEqual([
      { month: "2026-04", channel: null, amount: 60_000, currency: "USD", setByEmail: "bob@example.com", setAt: later.toISOString() },
      { month: "2026-04", channel: "google", amount: 12_000.5, currency: "USD", setByEmail: "ada@example.com", setAt: T0.toISOString() },
    ]);
    expect(await revenueTargets(db, { ...scope, organizationId: unique("org") }, "2026-04")).toEqual([]);
    expect(await clearRevenueTarget(db, scope, "2026-04", "google")).toBe(true);
    expect(await revenueTargets(db, scope, "2026-04")).toHaveLength(1);
  });

  it("reads the targets of a span of months, month by month, for a chart's range", async () => {
    const scope = { organizationId: unique("org"), storeUrl: "shop.example" };
    for (const month of ["2026-02", "2026-04", "2026-07"])
      await setRevenueTarget(db, scope, { month, amount: 1_000, currency: "USD" }, "ada@example.com", T0);
    expect((await revenueTargets(db, scope, "2026-03", "2026-07")).map((target) => target.month)).toEqual(["2026-04", "2026-07"]);
    expect(await revenueTargets(db, scope, "2026-05", "2026-06")).toEqual([]);
  });
});
