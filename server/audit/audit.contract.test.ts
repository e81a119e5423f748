import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditOutcome } from "@/shared/schemas/activity";
import { openForSuite, storageBackends, unique } from "@/test/databases";
import { appendAudit, InvalidCursor, listAudit, purgeAudit, type NewAuditEntry } from "@/server/audit/audit";
import type { Db } from "@/server/db/database";
import {
  createView,
  listViews,
  purgeViews,
  renameView,
  restoreView,
  SavedViewNameTaken,
  softDeleteView,
  UNDO_WINDOW_MS,
} from "@/server/saved-views/repository";

const T0 = new Date("2026-03-01T10:00:00Z");
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

/** Each test's entries are in a store of their own, as a listing reads stores. */
const storeOf = (organizationId: string) => `${organizationId}.shop.example`;

function entry(organizationId: string, when: Date, overrides: Partial<NewAuditEntry> = {}): NewAuditEntry {
  return {
    at: when,
    organizationId,
    storeUrl: storeOf(organizationId),
    userEmail: "ada@example.com",
    sessionId: null,
    action: "tracking-connection.remove",
    outcome: "succeeded",
    status: 200,
    target: { connectionId: "px_1", connectionName: "Main pixel", channel: "facebook" },
    requestId: "dash_1",
    upstreamRequestId: "up_1",
    idempotencyKey: null,
    ...overrides,
  };
}

describe.each(storageBackends())("audit log and saved views on %s", (backend) => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => ({ db, close } = await openForSuite(backend)));
  afterAll(() => close());

  it("pages newest first with a keyset cursor, ties on time broken by id, no entry twice or missed", async () => {
    const org = unique("org");
    const ids: string[] = [];
    // Pairs share a timestamp, so the cursor must carry the id as well.
    for (let i = 0; i < 7; i++) ids.push(await appendAudit(db, entry(org, at(Math.floor(i / 2)))));
    await appendAudit(db, entry(unique("org"), at(100)));
    const seen: string[] = [];
    let before: string | undefined;
    let pages = 0;
    do {
      const page = await listAudit(db, { storeUrls: [storeOf(org)] }, { limit: 3, before });
      seen.push(...page.entries.map((e) => e.id));
      before = page.nextCursor ?? undefined;
      pages++;
    } while (before);
    expect(pages).toBe(3);
    expect(new Set(seen)).toEqual(new Set(ids));
    expect(seen).toHaveLength(7);
    const all = (await listAudit(db, { storeUrls: [storeOf(org)] }, { limit: 50 })).entries;
    expect(all.map((e) => e.id)).toEqual(seen);
    expect(all.map((e) => e.at)).toEqual([...all.map((e) => e.at)].sort().reverse());
    await expect(listAudit(db, { storeUrls: [storeOf(org)] }, { limit: 3, before: "not-a-cursor" })).rejects.toBeInstanceOf(InvalidCursor);
  });

  it("pages any history, whatever its ties in time and the page size, into exactly its entries newest first", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 0, maxLength: 12 }),
        fc.integer({ min: 1, max: 5 }),
        async (seconds, limit) => {
          const org = unique("org");
          const ids = new Map<string, number>();
          for (const second of seconds) ids.set(await appendAudit(db, entry(org, at(second))), second);
          const seen: string[] = [];
          let before: string | undefined;
          do {
            const page = await listAudit(db, { storeUrls: [storeOf(org)] }, { limit, before });
            expect(page.entries.length).toBeLessThanOrEqual(limit);
            seen.push(...page.entries.map((e) => e.id));
            before = page.nextCursor ?? undefined;
          } while (before);
          expect([...seen].sort()).toEqual([...ids.keys()].sort());
          const times = seen.map((id) => ids.get(id)!);
          expect(times).toEqual([...times].sort((a, b) => b - a));
        },
      ),
      { numRuns: 15 },
    );
  });

  it("keeps the names known at the time and derives the IDs the list shows", async () => {
    const org = unique("org");
    const target = {
      adAccountId: "acc_1",
      adAccountName: "Main",
      sourceCampaignGroupId: "cg_1",
      sourceCampaignGroupName: "Spring",
      newGroupName: "Spring copy",
      newGroupId: "cg_9",
    };
    await appendAudit(db, entry(org, T0, { action: "campaign-group.clone", target }));
    const [shown] = (await listAudit(db, { storeUrls: [storeOf(org)] }, { limit: 1 })).entries;
    expect(shown).toMatchObject({ target, targetIds: ["acc_1", "cg_1"], resultIds: ["cg_9"], at: T0.toISOString(), requestId: "dash_1" });
  });

  it("filters by action, outcome, store, user and time", async () => {
    const org = unique("org");
    const [a, b] = [`a.${storeOf(org)}`, `b.${storeOf(org)}`];
    const outcomes: AuditOutcome[] = ["succeeded", "failed", "not_done", "unknown"];
    for (const [i, outcome] of outcomes.entries()) {
      await appendAudit(
        db,
        entry(org, at(i), {
          outcome,
          storeUrl: i % 2 ? b : a,
          userEmail: i < 2 ? "ada@example.com" : "bo@example.com",
        }),
      );
    }
    await appendAudit(db, entry(org, at(10), { action: "campaign-group.clone", target: {}, storeUrl: a }));
    const list = async (filters: Parameters<typeof listAudit>[1]["filters"], storeUrls = [a, b]) =>
      (await listAudit(db, { storeUrls, filters }, { limit: 50 })).entries.map((e) => e.outcome + "@" + e.storeUrl);
    expect(await list({ outcome: "unknown" })).toEqual([`unknown@${b}`]);
    expect(await list({ action: "tracking-connection.remove" }, [a])).toEqual([`not_done@${a}`, `succeeded@${a}`]);
    expect(await list({ userEmail: "BO@example.com", action: "tracking-connection.remove" })).toEqual([`unknown@${b}`, `not_done@${a}`]);
    expect(await list({ from: at(1), to: at(3) })).toEqual([`not_done@${a}`, `failed@${b}`]);
    expect(await list({ action: "campaign-group.clone" })).toHaveLength(1);
  });

  it("purges entries older than the retention", async () => {
    const org = unique("org");
    const day = 86_400;
    await appendAudit(db, entry(org, at(-401 * day)));
    await appendAudit(db, entry(org, at(-399 * day)));
    expect(await purgeAudit(db, T0, 400)).toBeGreaterThanOrEqual(1);
    expect((await listAudit(db, { storeUrls: [storeOf(org)] }, { limit: 10 })).entries.map((e) => e.at)).toEqual([
      at(-399 * day).toISOString(),
    ]);
  });

  it("saves views with names unique per store ignoring case, renames, deletes with a 10 s undo", async () => {
    const org = unique("org");
    const shop = "shop.example";
    const base = { organizationId: org, storeUrl: shop, view: { channel: "facebook" }, createdByEmail: "ada@example.com" };
    const weekly = await createView(db, { ...base, name: "Weekly" }, T0);
    expect(weekly).toMatchObject({ name: "Weekly", view: { channel: "facebook" }, deletedAt: null });
    await expect(createView(db, { ...base, name: "WEEKLY" }, T0)).rejects.toBeInstanceOf(SavedViewNameTaken);
    expect((await createView(db, { ...base, storeUrl: "other.example", name: "weekly" }, T0)).name).toBe("weekly");
    const monthly = await createView(db, { ...base, name: "monthly" }, T0);
    expect((await listViews(db, org, shop)).map((v) => v.name)).toEqual(["monthly", "Weekly"]);
    await expect(renameView(db, org, shop, monthly.id, "weekly", at(1))).rejects.toBeInstanceOf(SavedViewNameTaken);
    expect((await renameView(db, org, shop, monthly.id, "Monthly", at(1)))!.name).toBe("Monthly");

    expect(await softDeleteView(db, org, shop, weekly.id, at(2))).toMatchObject({ id: weekly.id });
    expect((await listViews(db, org, shop)).map((v) => v.name)).toEqual(["Monthly"]);
    expect((await restoreView(db, org, shop, weekly.id, at(5)))!.deletedAt).toBeNull();
    await softDeleteView(db, org, shop, weekly.id, at(6));
    // The name is free again while deleted: restoring then would clash.
    const again = await createView(db, { ...base, name: "weekly" }, at(7));
    await expect(restoreView(db, org, shop, weekly.id, at(8))).rejects.toBeInstanceOf(SavedViewNameTaken);
    await softDeleteView(db, org, shop, again.id, at(8));
    expect(await restoreView(db, org, shop, weekly.id, new Date(at(6).getTime() + UNDO_WINDOW_MS))).toBeNull();
    expect(await purgeViews(db, at(30))).toBeGreaterThanOrEqual(2);
    expect(await listViews(db, org, shop)).toHaveLength(1);
  });

  it("reaches a view only through its own organization and store", async () => {
    const org = unique("org");
    const view = await createView(
      db,
      { organizationId: org, storeUrl: "shop.example", name: "Mine", view: {}, createdByEmail: "a@example.com" },
      T0,
    );
    for (const [organizationId, storeUrl] of [
      [unique("org"), "shop.example"],
      [org, "other.example"],
    ] as const) {
      expect(await renameView(db, organizationId, storeUrl, view.id, "Theirs", at(1))).toBeNull();
      expect(await softDeleteView(db, organizationId, storeUrl, view.id, at(1))).toBeNull();
      expect(await listViews(db, organizationId, storeUrl)).toEqual([]);
    }
    expect((await listViews(db, org, "shop.example")).map((v) => v.name)).toEqual(["Mine"]);
  });

  it("treats names that differ only by case folding or composition as one name", async () => {
    const org = unique("org");
    const base = { organizationId: org, storeUrl: "shop.example", view: {}, createdByEmail: "a@example.com" };
    await createView(db, { ...base, name: "Straße" }, T0);
    await expect(createView(db, { ...base, name: "STRASSE" }, T0)).rejects.toBeInstanceOf(SavedViewNameTaken);
    await createView(db, { ...base, name: "Caf\u00e9" }, T0);
    await expect(createView(db, { ...base, name: "Cafe\u0301" }, T0)).rejects.toBeInstanceOf(SavedViewNameTaken);
  });
});
