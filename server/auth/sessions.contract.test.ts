import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openForSuite, storageBackends, unique } from "@/test/databases";
import type { Db } from "@/server/db/database";
import { listRefusals, rememberRefusal } from "@/server/auth/key-refusals";
import { purgeExpired } from "@/server/maintenance/purge";
import { purgeFailures, recordFailure, retryAfterSeconds } from "@/server/auth/rate-limits";
import {
  createSession,
  getSession,
  listSessionsHolding,
  purgeSessions,
  revokeOthers,
  revokeSession,
  sessionState,
  touchIntervalSeconds,
  touchSession,
  type NewSession,
} from "@/server/auth/sessions";

const T0 = new Date("2026-03-01T10:00:00Z");
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

function newSession(fingerprint = unique("fp")): NewSession {
  return {
    keyFingerprint: fingerprint,
    userEmail: "ada@example.com",
    userName: "Ada",
    organizationId: "org_1",
    organizationName: "Org One",
    userAgent: "Mozilla/5.0 Firefox/140.0",
    clientAddress: "203.0.113.9",
  };
}

describe("session state (pure)", () => {
  const limits = { ttlSeconds: 8 * 3600, idleSeconds: 3600 };
  const row = { createdAt: T0, lastSeenAt: T0, revokedAt: null };
  it("judges with the limits of now, so lowering them ends sessions already issued", () => {
    expect(sessionState(row, at(2 * 3600), { ttlSeconds: 8 * 3600, idleSeconds: 3 * 3600 })).toBe("active");
    expect(sessionState(row, at(2 * 3600), { ttlSeconds: 3600, idleSeconds: 3 * 3600 })).toBe("expired");
    expect(sessionState(row, at(2 * 3600), limits)).toBe("idle");
    expect(sessionState({ ...row, lastSeenAt: at(7000) }, at(7200), limits)).toBe("active");
    expect(sessionState({ ...row, revokedAt: at(1) }, at(2), limits)).toBe("revoked");
  });
});

describe.each(storageBackends())("sessions, sign-in limit and key refusals on %s", (backend) => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => ({ db, close } = await openForSuite(backend)));
  afterAll(() => close());

  it("creates a session with a random id, and reads it back", async () => {
    const created = await createSession(db, newSession(), T0);
    expect(created.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await getSession(db, created.id)).toEqual(created);
    expect(created).toMatchObject({ createdAt: T0, lastSeenAt: T0, revokedAt: null, organizationName: "Org One" });
    expect(await getSession(db, "nope")).toBeNull();
  });

  it("revokes: one session, then all but one, of the sessions holding a key; other keys untouched", async () => {
    const fingerprint = unique("fp");
    const [a, b, c] = [
      await createSession(db, newSession(fingerprint), T0),
      await createSession(db, newSession(fingerprint), at(1)),
      await createSession(db, newSession(fingerprint), at(2)),
    ];
    const other = await createSession(db, newSession(), T0);
    expect((await listSessionsHolding(db, [fingerprint])).map((s) => s.id)).toEqual([c!.id, b!.id, a!.id]);

    expect(await revokeSession(db, a!.id, "signed_out", at(10))).toBe(true);
    expect(await revokeSession(db, a!.id, "signed_out", at(11))).toBe(false);
    const revoked = (await getSession(db, a!.id))!;
    expect(revoked).toMatchObject({ revokedAt: at(10), revokedReason: "signed_out" });
    expect(sessionState(revoked, at(12), { ttlSeconds: 3600, idleSeconds: 3600 })).toBe("revoked");

    expect(await revokeOthers(db, [fingerprint], c!.id, at(20))).toBe(1);
    expect((await listSessionsHolding(db, [fingerprint])).map((s) => s.id)).toEqual([c!.id]);
    expect((await getSession(db, other.id))!.revokedAt).toBeNull();
  });

  it("touches at most once a minute, and never a revoked session", async () => {
    const session = await createSession(db, newSession(), T0);
    expect(await touchSession(db, session.id, at(30), 60)).toBe(false);
    expect(await touchSession(db, session.id, at(60), 60)).toBe(true);
    expect(await touchSession(db, session.id, at(90), 60)).toBe(false);
    expect((await getSession(db, session.id))!.lastSeenAt).toEqual(at(60));
    await revokeSession(db, session.id, "signed_out", at(100));
    expect(await touchSession(db, session.id, at(500), 60)).toBe(false);
  });

  it("touches often enough that a short idle limit never ends a session in use", () => {
    expect(touchIntervalSeconds(3600)).toBe(60);
    expect(touchIntervalSeconds(40)).toBe(10);
    expect(touchIntervalSeconds(2)).toBe(1);
    for (const idle of [1, 2, 5, 30, 59, 60, 240, 86_400]) expect(touchIntervalSeconds(idle)).toBeLessThanOrEqual(Math.max(1, idle / 2));
  });

  it("purges sessions a day after they ended or expired", async () => {
    const ttl = 3600;
    const old = await createSession(db, newSession(), at(-3 * 86400));
    const fresh = await createSession(db, newSession(), T0);
    expect(await purgeSessions(db, T0, ttl)).toBeGreaterThanOrEqual(1);
    expect(await getSession(db, old.id)).toBeNull();
    expect(await getSession(db, fresh.id)).not.toBeNull();
  });

  it("are purged with everything else that has outlived its purpose", async () => {
    const ended = await createSession(db, newSession(), at(-3 * 86400));
    await revokeSession(db, ended.id, "signed_out", at(-2 * 86400));
    expect(await purgeExpired(db, T0)).toMatch(/^\d+ idempotency records, .*, \d+ sessions, /);
    expect(await getSession(db, ended.id)).toBeNull();
  });

  it("limits sign-in failures per client in a sliding window", async () => {
    const client = unique("203.0.113");
    for (let i = 0; i < 9; i++) await recordFailure(db, client, at(i));
    expect(await retryAfterSeconds(db, client, at(10))).toBe(0);
    await recordFailure(db, client, at(9));
    // The 10th failure in the window: wait until the oldest leaves it (t=0 + 60 s).
    expect(await retryAfterSeconds(db, client, at(10))).toBe(50);
    expect(await retryAfterSeconds(db, unique("other"), at(10))).toBe(0);
    expect(await retryAfterSeconds(db, client, at(60))).toBe(0);
    expect(await purgeFailures(db, at(200))).toBeGreaterThanOrEqual(10);
    expect(await retryAfterSeconds(db, client, at(10))).toBe(0);
  });

  it("remembers the upstream's refusal of an action per key fingerprint, the latest message winning", async () => {
    const fingerprint = unique("fp");
    await rememberRefusal(db, fingerprint, "campaign-group.clone", "first", T0);
    await rememberRefusal(db, fingerprint, "campaign-group.clone", "the upstream refused this action with 403 for this key", at(5));
    expect(await listRefusals(db, [fingerprint])).toEqual([
      { action: "campaign-group.clone", message: "the upstream refused this action with 403 for this key", refusedAt: at(5) },
    ]);
    expect(await listRefusals(db, [unique("fp")])).toEqual([]);
  });
});
