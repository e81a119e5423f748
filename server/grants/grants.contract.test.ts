import { createCipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { dumpAllTables, openForSuite, storageBackends, unique } from "@/test/databases";
import type { Db } from "@/server/db/database";
import { MasterKeyMissing, needsReseal, openApiKey, sealApiKey, UnreadableGrant } from "./envelope";
import { createGrant, endGrant, listGrants, purgeGrantKeys, renewGrantsOfKey, revokeGrant, sealedKeyOf } from "./store";

const KEY = "sk_demo_admin_nw_us_5d8e2f41c7a9";
const DAY_MS = 86_400_000;

const BINDING = { grantId: "grant_1", organizationId: "org_1", storeUrl: "shop.example", keyFingerprint: "fp_1" };

describe("the envelope of a granted key", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("opens under the master key that sealed it, listed anywhere, and only for the grant, organization, store and key it was sealed for", () => {
    vi.stubEnv("DELEGATION_KEY", "first-master-key-".padEnd(40, "a"));
    const sealed = sealApiKey(BINDING, KEY);
    expect(sealed.sealedApiKey.toString("latin1")).not.toContain(KEY);
    vi.stubEnv("DELEGATION_KEY", `${"second-master-key-".padEnd(40, "b")},${"first-master-key-".padEnd(40, "a")}`);
    expect(openApiKey(BINDING, sealed)).toBe(KEY);
    expect(needsReseal(sealed)).toBe(true);
    for (const moved of [{ grantId: "grant_2" }, { organizationId: "org_2" }, { storeUrl: "other.example" }, { keyFingerprint: "fp_2" }])
      expect(() => openApiKey({ ...BINDING, ...moved }, sealed), JSON.stringify(moved)).toThrow(UnreadableGrant);
    vi.stubEnv("DELEGATION_KEY", "second-master-key-".padEnd(40, "b"));
    expect(() => openApiKey(BINDING, sealed)).toThrow(MasterKeyMissing);
  });

  it("refuses a value cut short of its 16-byte tag", () => {
    vi.stubEnv("DELEGATION_KEY", "first-master-key-".padEnd(40, "a"));
    const sealed = sealApiKey(BINDING, KEY);
    expect(() => openApiKey(BINDING, { ...sealed, wrappedDataKey: sealed.wrappedDataKey.subarray(0, 20) })).toThrow(UnreadableGrant);
    expect(() => openApiKey(BINDING, { ...sealed, sealedApiKey: sealed.sealedApiKey.subarray(0, 27) })).toThrow(UnreadableGrant);
  });

  it("still opens a key sealed before the binding (grant id only), and asks for it to be sealed again", () => {
    const secret = "first-master-key-".padEnd(40, "a");
    vi.stubEnv("DELEGATION_KEY", secret);
    const master = Buffer.from(hkdfSync("sha256", secret, "store-analytics-dashboard", "delegation master key", 32));
    const seal = (key: Buffer, plain: Buffer, aad: string) => {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv).setAAD(Buffer.from(aad));
      const body = Buffer.concat([cipher.update(plain), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]);
    };
    const dataKey = randomBytes(32);
    const legacy = {
      masterKeyId: createHash("sha256").update(master).digest("hex").slice(0, 16),
      wrappedDataKey: seal(master, dataKey, "data-key:grant_1"),
      sealedApiKey: seal(dataKey, Buffer.from(KEY), "api-key:grant_1"),
      sealVersion: 1,
    };
    expect(openApiKey(BINDING, legacy)).toBe(KEY);
    expect(needsReseal(legacy)).toBe(true);
    expect(needsReseal(sealApiKey(BINDING, KEY))).toBe(false);
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

  it("loses its sealed key to the purge once past its expiry, whether or not anything read through it", async () => {
    vi.stubEnv("DELEGATION_KEY", "grants-master-key-".padEnd(40, "g"));
    const start = new Date();
    const expiring = await createGrant(db, { ...input(unique("fp")), ttlDays: 1 }, start);
    const lasting = await createGrant(db, input(unique("fp")), start);
    expect(await purgeGrantKeys(db, new Date(start.getTime() + 2 * DAY_MS))).toBeGreaterThanOrEqual(1);
    const rows = await db.query<{ id: string; reason: string | null; length: number }>(
      "select id, ended_reason as reason, length(sealed_api_key) as length from grants where id = any($1::text[])",
      [[expiring.id, lasting.id]],
    );
    const byId = Object.fromEntries(rows.map((row) => [row.id, { reason: row.reason, length: Number(row.length) }]));
    expect(byId[expiring.id]).toEqual({ reason: "expired", length: 0 });
    expect(byId[lasting.id]!.reason).toBeNull();
    expect(byId[lasting.id]!.length).toBeGreaterThan(0);
  });

  it("keeps its owner on renewal: a colleague with the same key gets a grant of their own, and the database allows one active grant per key, store and owner", async () => {
    vi.stubEnv("DELEGATION_KEY", "grants-master-key-".padEnd(40, "g"));
    const now = new Date();
    const fingerprint = unique("fp");
    const mine = await createGrant(db, input(fingerprint), now);
    const theirs = await createGrant(db, { ...input(fingerprint), storeUrl: mine.storeUrl, ownerEmail: "colleague@example.com" }, now);
    expect(theirs.id).not.toBe(mine.id);
    const renewed = await createGrant(db, { ...input(fingerprint), storeUrl: mine.storeUrl, ownerEmail: "OWNER@example.com" }, now);
    expect(renewed.id).toBe(mine.id);
    const owners = (await listGrants(db, "org_grants", mine.storeUrl)).map((grant) => [grant.id, grant.ownerEmail]);
    expect(owners.sort()).toEqual(
      [
        [mine.id, "owner@example.com"],
        [theirs.id, "colleague@example.com"],
      ].sort(),
    );
    // A second active grant of the same key, store and owner is refused by the database itself.
    await expect(
      db.query(
        `insert into grants (id, organization_id, store_url, key_fingerprint, owner_email, master_key_id, wrapped_data_key, sealed_api_key, created_at, expires_at)
         values ('grant_twice', 'org_grants', $1, $2, 'Owner@Example.com', 'k', '\\x00', '\\x00', now(), now() + interval '1 day')`,
        [mine.storeUrl, fingerprint],
      ),
    ).rejects.toThrow(/grants_one_active_per_owner/);
    // Once ended, the owner may grant again.
    await endGrant(db, mine.id, "revoked", now);
    expect((await createGrant(db, { ...input(fingerprint), storeUrl: mine.storeUrl }, now)).id).not.toBe(mine.id);
  });
});
