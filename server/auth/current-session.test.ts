import { createHmac } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { database } from "@/server/db/database";
import { listRefusals, rememberRefusal } from "@/server/auth/key-refusals";
import { createSession, getSession } from "@/server/auth/sessions";
import { resolveSession } from "./current-session";
import { newSessionData, sealSession } from "./cookie";

const SECRET = "legacy-secret-".padEnd(48, "l");
const API_KEY = "sk_live_legacy_0a1b2c3d4e5f";

afterEach(() => vi.unstubAllEnvs());

describe("key identities written before they had their own pepper", () => {
  it("are moved to the key's identity the first time the key is seen again", async () => {
    vi.stubEnv("SESSION_SECRET", SECRET);
    const db = await database();
    // As earlier versions wrote them: an HMAC keyed by the session secret.
    const legacy = createHmac("sha256", SECRET).update(API_KEY).digest("hex");
    const row = await createSession(
      db,
      {
        keyFingerprint: legacy,
        userEmail: "ada@example.com",
        userName: "Ada",
        organizationId: "org_1",
        organizationName: "Org",
        userAgent: "",
        clientAddress: "",
      },
      new Date(),
    );
    await rememberRefusal(db, legacy, "campaign-group.clone", "not allowed", new Date());
    const cookie = await sealSession(
      newSessionData({ sessionId: row.id, apiKey: API_KEY, organizationId: "org_1", stores: [], user: { name: "Ada", email: "a@x" } }),
    );

    const { session } = await resolveSession(cookie);
    const fingerprint = session?.keys[0]?.fingerprint;
    expect(fingerprint).toMatch(/^kf2_[0-9a-f]{64}$/);
    expect((await getSession(db, row.id))!.keyFingerprint).toBe(fingerprint);
    expect(await listRefusals(db, [fingerprint!])).toMatchObject([{ action: "campaign-group.clone" }]);
    expect(await listRefusals(db, [legacy])).toEqual([]);
    // The identity is the same whatever the session secret.
    vi.stubEnv("SESSION_SECRET", `${"n".repeat(40)},${SECRET}`);
    expect((await resolveSession(cookie)).session?.keys[0]?.fingerprint).toBe(fingerprint);
  });
});
