import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { dumpAllTables, openForSuite, storageBackends, unique } from "@/test/databases";
import type { Db } from "@/server/db/database";
import { openApiKey, sealApiKey } from "./envelope";
import { createGrant, endGrant, listGrants, renewGrantsOfKey, revokeGrant, sealedKeyOf } from "./store";

const KEY = "sk_demo_admin_nw_us_5d8e2f41c7a9";
const DAY_MS = 86_400_000;

describe("the envelope of a granted key", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("opens under the master key that sealed it, listed anywhere, and never under another grant's id", () => {
    vi.stubEnv("DELEGATION_KEY", "first-master-key-".padEnd(40, "a"));
    const sealed = sealApiKey("grant_1", KEY);
    expect(sealed.sealedApiKey.toString("latin1")).not.toContain(KEY);
    vi.stubEnv("DELEGATION_KEY", `${"second-master-key-".padEnd(40, "b")},${"first-master-key-".padEnd(40, "a")}`);
    expect(openApiKey("grant_1", sealed)).toBe(KEY);
    expect(() => openApiKey("grant_2", sealed)).toThrow(/does not open/);
    vi.stubEnv("DELEGATION_KEY", "second-master-key-".padEnd(40, "b"));
    expect(() => openApiKey("grant_1", sealed)).toThrow(/no longer in DELEGATION_KEY/);
  });
});

describe.each(storageBackends())("grants on %s", (backend) => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => ({ db, close } = await openForSuite(backend)));
  afterAll(() => close());
  afterEach(() => vi.unstubAllEnvs());

  const input = (fingerprint: string) => ({
    organizationId: "org_grants",
    storeUrl: unique("store"),
    keyFingerprint: fingerprint,
    ownerEmail: "owner@example.com",
    apiKey: KEY,
    ttlDays: 90,
  });

  it("keeps one grant per key and store, sealed, revocable only by its owner, which erases the sealed key", async () => {
    vi.stubEnv("DELEGATION_KEY", "grants-master-key-".padEnd(40, "g"));
    const now = new Date();
    const fingerprint = unique("fp");
    const first = await createGrant(db, input(fingerprint), now);
    const again = await createGrant(db, { ...input(fingerprint), storeUrl: first.storeUrl }, now);
    expect(again.id).toBe(first.id);
    expect((await listGrants(db, "org_grants", first.storeUrl)).length).toBe(1);
    expect(await dumpAllTables(db)).not.toContain(KEY);
    const scope = { organizationId: "org_grants", storeUrl: first.storeUrl };
    expect(await revokeGrant(db, { ...scope, keyFingerprint: unique("fp") }, first.id, now)).toBe("not_owner");
    expect(await revokeGrant(db, { ...scope, keyFingerprint: fingerprint }, first.id, now)).toBe("revoked");
    expect(await sealedKeyOf(db, first.id, now)).toEqual({ ended: "revoked" });
    const [row] = await db.query<{ length: number }>("select length(sealed_api_key) as length from grants where id = $1", [first.id]);
    expect(Number(row!.length)).toBe(0);
  });

  it("expires after its lifetime unless its key signs in, which renews it", async () => {
    vi.stubEnv("DELEGATION_KEY", "grants-master-key-".padEnd(40, "g"));
    const start = new Date();
    const fingerprint = unique("fp");
    const grant = await createGrant(db, input(fingerprint), start);
    await renewGrantsOfKey(db, fingerprint, 90, new Date(start.getTime() + 80 * DAY_MS));
    expect(await sealedKeyOf(db, grant.id, new Date(start.getTime() + 120 * DAY_MS))).toHaveProperty("grant");
    expect(await sealedKeyOf(db, grant.id, new Date(start.getTime() + 171 * DAY_MS))).toEqual({ ended: "expired" });
    expect(await endGrant(db, grant.id, "revoked", new Date())).toBe(false);
  });
});
