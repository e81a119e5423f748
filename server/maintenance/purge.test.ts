import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createGrant } from "@/server/grants/store";
import { registerAllJobs } from "@/server/jobs/catalog";
import { startBackgroundWork, stopBackgroundWork } from "@/server/jobs/worker";
import { database } from "@/server/db/database";
import { acrossStores, reachDb } from "@/server/db/reach";
import { getSession, revokeSession } from "@/server/auth/sessions";
import { bareSession } from "@/test/sessions";

/** The purges run on schedule, as recurring jobs of the catalog, whether or not anyone signs in or acts. */
const STORE = "purge-schedule.example";

beforeAll(() => vi.stubEnv("DELEGATION_KEY", "purge-schedule-master-key-".padEnd(48, "p")));
afterAll(async () => {
  await stopBackgroundWork();
  vi.unstubAllEnvs();
});

describe("the purge of expired rows", () => {
  it("erases an expired grant's sealed key and forgets an ended session with nobody signing in", async () => {
    const db = await database();
    const past = new Date(Date.now() - 3 * 86_400_000);
    const grant = await createGrant(
      reachDb(db, [STORE]),
      { organizationId: "org_purge", storeUrl: STORE, keyFingerprint: "fp_purge", ownerEmail: "a@example.com", apiKey: "sk_x", ttlDays: 1 },
      past,
    );
    const session = await bareSession(db, "fp_purge", past);
    await revokeSession(db, session.id, "signed_out", past);
    registerAllJobs();
    startBackgroundWork({ pollMs: 25 });
    await vi.waitFor(
      async () => {
        const [row] = await acrossStores(db, "a test", (tx) =>
          tx.query<{ reason: string | null; length: number }>(
            "select ended_reason as reason, length(sealed_api_key)::int as length from grants where id = $1",
            [grant.id],
          ),
        );
        expect(row).toEqual({ reason: "expired", length: 0 });
        expect(await getSession(db, session.id)).toBeNull();
      },
      { timeout: 15_000, interval: 50 },
    );
    const [run] = await db.query<{ detail: string }>("select detail from jobs where name = 'maintenance.purge-expired' and state = 'done'");
    expect(run!.detail).toMatch(/\d+ sessions, .*, [1-9]\d* grants ended$/);
  });
});
