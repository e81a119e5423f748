import { describe, expect, it, vi } from "vitest";
import {
  ADMIN_KEY,
  callRoute,
  cookieFrom,
  dashboardRequest,
  MARKETER_KEY,
  startRecordingUpstream,
  US_STORE,
  useUpstream,
} from "@/test/harness";
import { demoUpstreamPerFile } from "@/test/demo-upstream";
import { unsealSession } from "@/server/auth/cookie";
import { database } from "@/server/db/database";
import { keyFingerprint } from "@/server/auth/key-identity";
import { acrossStores, inReach, withReach } from "@/server/db/reach";
import { takeDropNotices } from "@/server/auth/session-keys";
import { grantedUpstream } from "@/server/grants/granted-upstream";
import { RING_LIMIT } from "@/shared/schemas/session";
import { addRingKey, removeRingKey } from "./key-ring";
import { grantStore } from "./grants";
import { proxyToUpstream } from "./proxy";
import { currentSession, signIn } from "./sign-in";

const EU_KEY = "sk_demo_admin_nw_eu_2a7f94c1e8b3";
const EU_STORE = "northwind-eu.myshopify.com";
const EXPIRED_KEY = "sk_demo_expired_nw_us_6e3b8d52a1f0";
const LEGACY_KEY = "sk_demo_legacy_unscoped_8f2d5b1a9c37";

const upstream = demoUpstreamPerFile({ control: true });

const post = (path: string, cookie: string, body: unknown) =>
  dashboardRequest(path, { method: "POST", cookie, body: JSON.stringify(body), headers: { "content-type": "application/json" } });

async function signedIn(apiKey = ADMIN_KEY): Promise<string> {
  return cookieFrom(await signIn(post("/api/session", "", { apiKey })));
}

/** Signs in with the US key and adds the EU key: the ring's cookie. */
async function ringOfBoth(): Promise<string> {
  const added = await addRingKey(post("/api/session/keys", await signedIn(), { apiKey: EU_KEY }));
  expect(added.status).toBe(201);
  return cookieFrom(added);
}

const read = (path: string, cookie: string) => proxyToUpstream(dashboardRequest(path, { cookie }));
const storeProfile = (store: string, cookie: string) => read(`/api/v1/store-data/${encodeURIComponent(store)}`, cookie);

async function summary(cookie: string) {
  const response = await currentSession(dashboardRequest("/api/session", { cookie }));
  return { status: response.status, body: (await response.json()) as { session: { keys?: { label: string; storeUrls: string[] }[] } } };
}

async function revokeInUpstream(key: string) {
  const response = await fetch(`${upstream.origin}/__control/revoke`, { method: "POST", body: JSON.stringify({ key }) });
  expect(response.status).toBe(200);
}

describe("the key ring", () => {
  it("adds another store's key: sealed in the cookie, both stores listed, never the key in the answer", async () => {
    const added = await addRingKey(post("/api/session/keys", await signedIn(), { apiKey: EU_KEY }));
    expect(added.status).toBe(201);
    const text = await added.text();
    expect(text).not.toContain(EU_KEY);
    expect(text).not.toContain(ADMIN_KEY);
    const cookie = cookieFrom(added);
    expect(cookie).not.toContain(EU_KEY);
    const { body } = await summary(cookie);
    expect(body.session.keys?.map((key) => key.storeUrls)).toEqual([[US_STORE], [EU_STORE]]);
    expect(JSON.stringify(body)).not.toContain(EU_KEY);
    // The database holds the key's fingerprint only.
    const rows = await acrossStores(await database(), "a test of the ring's rows", (tx) =>
      tx.query<{ fingerprint: string }>(`select key_fingerprint as fingerprint from session_keys where store_urls @> $1::text[]`, [
        [EU_STORE],
      ]),
    );
    expect(rows.map((row) => row.fingerprint)).toContain(await keyFingerprint(await database(), EU_KEY));
  });

  it("works as a plain form post: 303 back to the store list, the key never in the URL", async () => {
    const form = dashboardRequest("/api/session/keys", {
      method: "POST",
      cookie: await signedIn(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ apiKey: EU_KEY }).toString(),
    });
    const response = await addRingKey(form);
    expect(response.status).toBe(303);
    const location = response.headers.get("location")!;
    expect(location).toBe(`/context?added=${encodeURIComponent(EU_STORE)}`);
    expect(location).not.toContain(EU_KEY);
    expect((await summary(cookieFrom(response))).body.session.keys).toHaveLength(2);
  });

  it("sends every upstream call with the key of the store it names, and /context once per key", async () => {
    const cookie = await ringOfBoth();
    upstream.reset();
    expect((await storeProfile(US_STORE, cookie)).status).toBe(200);
    expect((await storeProfile(EU_STORE, cookie)).status).toBe(200);
    const context = await read("/api/v1/context", cookie);
    expect(context.status).toBe(200);
    const stores = ((await context.json()) as { organizations: { stores: { url: string }[] }[] }).organizations.flatMap((org) =>
      org.stores.map((store) => store.url),
    );
    expect(stores.sort()).toEqual([EU_STORE, US_STORE].sort());
    const uses = upstream.keyUses();
    const profileReads = uses.filter((use) => use.route === "store-profile");
    expect(profileReads).toEqual([
      { key: "Admin — Northwind US", route: "store-profile", storeUrl: US_STORE },
      { key: "Admin — Northwind EU", route: "store-profile", storeUrl: EU_STORE },
    ]);
    const contextKeys = uses.filter((use) => use.route === "context").map((use) => use.key);
    expect(new Set(contextKeys)).toEqual(new Set(["Admin — Northwind US", "Admin — Northwind EU"]));
  });

  it("replaces nothing silently: a key of a store already in the ring is refused, and says so", async () => {
    const cookie = await ringOfBoth();
    for (const apiKey of [MARKETER_KEY, EU_KEY]) {
      const response = await addRingKey(post("/api/session/keys", cookie, { apiKey }));
      expect(response.status, apiKey).toBe(409);
      const body = (await response.json()) as { code: string; error: string };
      expect(body.code).toBe("store_in_ring");
      expect(body.error).toMatch(/already in your key ring/);
    }
    expect((await summary(cookie)).body.session.keys).toHaveLength(2);
  });

  it("refuses an expired or unscoped key in the sign-in's words, and the session and its key stay", async () => {
    const cookie = await signedIn();
    const expired = await addRingKey(post("/api/session/keys", cookie, { apiKey: EXPIRED_KEY }));
    expect(expired.status).toBe(422);
    expect(((await expired.json()) as { code: string }).code).toBe("key_expired");
    expect(expired.headers.get("set-cookie")).toBeNull();
    const legacy = await addRingKey(post("/api/session/keys", cookie, { apiKey: LEGACY_KEY }));
    expect(legacy.status).toBe(403);
    expect(((await legacy.json()) as { code: string }).code).toBe("key_unscoped");
    expect((await storeProfile(US_STORE, cookie)).status).toBe(200);
    expect((await summary(cookie)).body.session.keys).toHaveLength(1);
  });

  it(`holds at most ${RING_LIMIT} keys and refuses the next clearly, before asking the upstream`, async () => {
    // An upstream whose every key reaches a store of its own, so that a ring can fill up.
    const storeOf = (key: string) => `store-${key.slice(-2)}.example`;
    const stamp = "2026-01-01T00:00:00Z";
    const recorder = await startRecordingUpstream((request) => {
      const key = String(request.headers["x-api-key"]);
      const store = { id: `st_${key}`, url: storeOf(key), type: "shopify", currency: "USD", createdAt: stamp, updatedAt: stamp };
      const organization = { id: "org_many", name: "Many", slug: "many", createdAt: stamp, role: "owner", stores: [store] };
      const user = { id: "usr_1", email: "ada@example.com", emailVerified: true, name: "Ada", image: null };
      return { status: 200, body: JSON.stringify({ user, organizations: [organization] }) };
    });
    useUpstream(recorder.baseUrl);
    try {
      const keys = Array.from({ length: RING_LIMIT + 1 }, (_, index) => `sk_ring_test_key_${String(index).padStart(2, "0")}`);
      let cookie = await signedIn(keys[0]);
      for (const apiKey of keys.slice(1, RING_LIMIT)) {
        const added = await addRingKey(post("/api/session/keys", cookie, { apiKey }));
        expect(added.status, apiKey).toBe(201);
        cookie = added.headers
          .getSetCookie()
          .map((value) => value.split(";")[0]!)
          .join("; ");
      }
      expect((await summary(cookie)).body.session.keys).toHaveLength(RING_LIMIT);
      const last = keys[RING_LIMIT]!;
      const response = await addRingKey(post("/api/session/keys", cookie, { apiKey: last }));
      expect(response.status).toBe(409);
      const body = (await response.json()) as { code: string; error: string };
      expect(body.code).toBe("ring_full");
      expect(body.error).toMatch(/at most 20 keys/);
      expect(recorder.received.filter((request) => request.headers["x-api-key"] === last)).toEqual([]);
    } finally {
      await recorder.close();
    }
  });

  it("removing a store ends its reach at once; every copy of the old cookie stops; the other store stays", async () => {
    const both = await ringOfBoth();
    const removed = await removeRingKey(post("/api/session/keys/remove", both, { storeUrl: EU_STORE }));
    expect(removed.status).toBe(200);
    const after = cookieFrom(removed);
    const eu = await storeProfile(EU_STORE, after);
    expect(eu.status).toBe(404);
    expect(((await eu.json()) as { code: string }).code).toBe("not_found");
    expect((await storeProfile(US_STORE, after)).status).toBe(200);
    expect((await summary(after)).body.session.keys?.map((key) => key.storeUrls)).toEqual([[US_STORE]]);
    for (const store of [EU_STORE, US_STORE]) expect((await storeProfile(store, both)).status, store).toBe(401);
    // Its store routes refuse too, before reading anything with another key.
    upstream.reset();
    const metrics = await read(`/api/v1/ad-metrics/${EU_STORE}/products?startDate=2026-01-01&endDate=2026-01-07`, after);
    expect(metrics.status).toBe(404);
    expect(upstream.keyUses().filter((use) => use.storeUrl === EU_STORE)).toEqual([]);
  });

  it("removing the last key signs out", async () => {
    const cookie = await signedIn();
    const response = await removeRingKey(post("/api/session/keys/remove", cookie, { storeUrl: US_STORE }));
    expect(response.status).toBe(204);
    expect(response.headers.getSetCookie().some((value) => /^session=; .*Max-Age=0/.test(value))).toBe(true);
    expect((await summary(cookie)).status).toBe(401);
  });

  it("an upstream 401 for one key drops only that key, and the next page names its store", async () => {
    const cookie = await ringOfBoth();
    await revokeInUpstream(EU_KEY);
    const eu = await storeProfile(EU_STORE, cookie);
    expect(eu.status).toBe(404);
    expect(((await eu.json()) as { error: string }).error).toMatch(new RegExp(`key for ${EU_STORE} .*left your key ring`));
    expect(eu.headers.getSetCookie().some((value) => value.startsWith("session="))).toBe(false);
    expect((await storeProfile(US_STORE, cookie)).status).toBe(200);
    expect((await storeProfile(EU_STORE, cookie)).status).toBe(404);
    const sealed = decodeURIComponent(cookie.slice("session=".length));
    const notices = await takeDropNotices(await database(), (await unsealSession(sealed))!.sessionId, new Date());
    expect(notices.map((notice) => [notice.storeUrls, notice.droppedReason])).toEqual([[[EU_STORE], "key_revoked"]]);
  });

  it("never shows one person's ring to another person's session of the same key", async () => {
    await ringOfBoth();
    const other = await signedIn();
    expect((await summary(other)).body.session.keys?.map((key) => key.storeUrls)).toEqual([[US_STORE]]);
    expect((await storeProfile(EU_STORE, other)).status).toBe(404);
  });

  it("seals a grant with the key of its own store, never another key of the ring", async () => {
    vi.stubEnv("DELEGATION_KEY", "ring-master-key-".padEnd(40, "r"));
    const cookie = await ringOfBoth();
    const granted = await callRoute(grantStore, post(`/api/stores/${EU_STORE}/grants`, cookie, { consent: true }));
    expect(granted.status).toBe(201);
    const { id } = (await granted.json()) as { id: string };
    const [row] = await withReach(await database(), [EU_STORE], (tx) =>
      tx.query<{ fingerprint: string }>("select key_fingerprint as fingerprint from grants where id = $1", [id]),
    );
    expect(row!.fingerprint).toBe(await keyFingerprint(await database(), EU_KEY));
    upstream.reset();
    // Another store's work cannot read with it.
    await expect(inReach([US_STORE], () => grantedUpstream(id))).rejects.toThrow(/does not exist/);
    // As a digest or alert of that store reads it: in that store's reach only.
    const { upstream: client } = await inReach([EU_STORE], () => grantedUpstream(id));
    await client.send("store-profile", { params: { storeUrl: EU_STORE } });
    expect(upstream.keyUses()).toEqual([{ key: "Admin — Northwind EU", route: "store-profile", storeUrl: EU_STORE }]);
  });
});
