import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openForSuite, storageBackends, unique } from "@/test/databases";
import { getAudit } from "@/server/audit/audit";
import type { Db } from "@/server/db/database";
import { beginAttempt, finishAttempt, purgeIdempotency, type AttemptContext, type Begin } from "@/server/actions/idempotency";
import { listRefusals } from "@/server/auth/key-refusals";

const T0 = new Date("2026-03-01T10:00:00Z");
const at = (ms: number) => new Date(T0.getTime() + ms);
const LOCK = { lockTimeoutMs: 20_000, retryUnknown: false };
const answer = { status: 200, headers: { "content-type": "application/json", "x-request-id": "up_1" }, body: '{"ok":true}' };

const context: AttemptContext = {
  action: "campaign-group.clone",
  organizationId: "org_1",
  storeUrl: "shop.example",
  userEmail: "ada@example.com",
  sessionId: "sess_1",
  requestId: "dash_1",
  target: {
    adAccountId: "acc_1",
    adAccountName: "Main",
    sourceCampaignGroupId: "cg_1",
    sourceCampaignGroupName: "Spring",
    newGroupName: "Spring copy",
  },
};

function audit(outcome: "succeeded" | "failed" | "not_done" | "unknown", when = at(1000)) {
  return { ...context, at: when, outcome, status: outcome === "unknown" ? null : 200, upstreamRequestId: null, idempotencyKey: null };
}

describe.each(storageBackends())("idempotency records on %s", (backend) => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => ({ db, close } = await openForSuite(backend)));
  afterAll(() => close());
  const newKey = () => ({ keyFingerprint: unique("fp"), idempotencyKey: randomUUID() });

  it("lets exactly one of 50 concurrent begins run; the others are told it is in progress", async () => {
    const key = newKey();
    const results = await Promise.all(Array.from({ length: 50 }, () => beginAttempt(db, key, "req", context, T0, LOCK)));
    expect(results.filter((result) => result.kind === "acquired")).toHaveLength(1);
    expect(results.filter((result) => result.kind === "in_progress")).toHaveLength(49);
  });

  it("replays a definitive answer with its audit entry, written in the same transaction; another request under the key conflicts", async () => {
    const key = newKey();
    const begun = (await beginAttempt(db, key, "req", context, T0, LOCK)) as Extract<Begin, { kind: "acquired" }>;
    expect(begun).toMatchObject({ kind: "acquired", afterUnknown: false });
    const auditId = await finishAttempt(
      db,
      { ...key, attemptId: begun.attemptId },
      { state: "definitive", outcome: "succeeded", answer },
      audit("succeeded"),
    );
    expect(await beginAttempt(db, key, "req", context, at(2000), LOCK)).toEqual({ kind: "replay", answer, outcome: "succeeded", auditId });
    expect(await beginAttempt(db, key, "other", context, at(2000), LOCK)).toEqual({ kind: "conflict" });
    expect(await getAudit(db, [context.storeUrl], auditId)).toMatchObject({ outcome: "succeeded", target: context.target });
  });

  it("removes a record that was not done, so a retry runs", async () => {
    const key = newKey();
    const begun = (await beginAttempt(db, key, "req", context, T0, LOCK)) as Extract<Begin, { kind: "acquired" }>;
    const auditId = await finishAttempt(db, { ...key, attemptId: begun.attemptId }, { state: "not_done" }, audit("not_done"));
    expect((await getAudit(db, [context.storeUrl], auditId))!.outcome).toBe("not_done");
    expect(await beginAttempt(db, key, "req", context, at(2000), LOCK)).toMatchObject({ kind: "acquired", afterUnknown: false });
  });

  it("keeps an unknown outcome: a clone is refused, a removal runs again (and says so)", async () => {
    const key = newKey();
    const begun = (await beginAttempt(db, key, "req", context, T0, LOCK)) as Extract<Begin, { kind: "acquired" }>;
    const auditId = await finishAttempt(db, { ...key, attemptId: begun.attemptId }, { state: "unknown" }, audit("unknown"));
    expect(await beginAttempt(db, key, "req", context, at(2000), LOCK)).toEqual({ kind: "unknown", auditId, target: context.target });
    expect(await beginAttempt(db, key, "req", context, at(2000), { ...LOCK, retryUnknown: true })).toMatchObject({
      kind: "acquired",
      afterUnknown: true,
    });
  });

  it("settles a started record past its lock timeout as unknown, with an audit entry, and never runs it twice", async () => {
    const key = newKey();
    expect((await beginAttempt(db, key, "req", context, T0, LOCK)).kind).toBe("acquired");
    expect((await beginAttempt(db, key, "req", context, at(19_999), LOCK)).kind).toBe("in_progress");
    const stale = await beginAttempt(db, key, "req", context, at(20_000), LOCK);
    expect(stale).toMatchObject({ kind: "unknown", target: context.target });
    const entry = await getAudit(db, [context.storeUrl], (stale as Extract<Begin, { kind: "unknown" }>).auditId!);
    expect(entry).toMatchObject({
      outcome: "unknown",
      status: null,
      requestId: "dash_1",
      userEmail: "ada@example.com",
      storeUrl: "shop.example",
    });
    // Asked again: still unknown, no second audit entry.
    expect(await beginAttempt(db, key, "req", context, at(30_000), LOCK)).toEqual(stale);
  });

  it("lets the owner of a stale attempt still record the truth when its answer finally comes", async () => {
    const key = newKey();
    const begun = (await beginAttempt(db, key, "req", context, T0, LOCK)) as Extract<Begin, { kind: "acquired" }>;
    await beginAttempt(db, key, "req", context, at(25_000), LOCK);
    await finishAttempt(
      db,
      { ...key, attemptId: begun.attemptId },
      { state: "definitive", outcome: "succeeded", answer },
      audit("succeeded"),
    );
    expect(await beginAttempt(db, key, "req", context, at(26_000), LOCK)).toMatchObject({ kind: "replay", answer });
  });

  it("writes nothing when the audit entry cannot be written: the record stays started", async () => {
    const key = newKey();
    const begun = (await beginAttempt(db, key, "req", context, T0, LOCK)) as Extract<Begin, { kind: "acquired" }>;
    const broken = { ...audit("succeeded"), action: "not-an-action" as never };
    await expect(
      finishAttempt(db, { ...key, attemptId: begun.attemptId }, { state: "definitive", outcome: "succeeded", answer }, broken),
    ).rejects.toThrow();
    expect((await beginAttempt(db, key, "req", context, at(1000), LOCK)).kind).toBe("in_progress");
  });

  it("remembers a 403 refusal in the same transaction", async () => {
    const key = newKey();
    const begun = (await beginAttempt(db, key, "req", context, T0, LOCK)) as Extract<Begin, { kind: "acquired" }>;
    const refused = { ...answer, status: 403, body: '{"error":"permission missing"}' };
    await finishAttempt(
      db,
      { ...key, attemptId: begun.attemptId },
      { state: "definitive", outcome: "failed", answer: refused },
      audit("failed"),
      {
        refusal: "permission missing",
      },
    );
    expect(await listRefusals(db, [key.keyFingerprint])).toEqual([
      { action: "campaign-group.clone", message: "permission missing", refusedAt: at(1000) },
    ]);
  });

  it("expires records after 24 hours: purged, and the key is new again", async () => {
    const key = newKey();
    const begun = (await beginAttempt(db, key, "req", context, T0, LOCK)) as Extract<Begin, { kind: "acquired" }>;
    await finishAttempt(
      db,
      { ...key, attemptId: begun.attemptId },
      { state: "definitive", outcome: "succeeded", answer },
      audit("succeeded", T0),
    );
    const day = 24 * 3600 * 1000;
    expect((await beginAttempt(db, key, "other", context, at(day - 1), LOCK)).kind).toBe("conflict");
    expect(await purgeIdempotency(db, at(day))).toBeGreaterThanOrEqual(1);
    expect((await beginAttempt(db, key, "other", context, at(day), LOCK)).kind).toBe("acquired");
  });

  it("refuses a key that is not a lower-case UUID at the database too", async () => {
    await expect(
      beginAttempt(db, { keyFingerprint: "fp", idempotencyKey: randomUUID().toUpperCase() }, "req", context, T0, LOCK),
    ).rejects.toThrow();
  });
});
