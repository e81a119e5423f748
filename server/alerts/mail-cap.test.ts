import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { database } from "@/server/db/database";
import { acrossStores, reachDb } from "@/server/db/reach";
import { registerAllJobs } from "@/server/jobs/catalog";
import { startBackgroundWork, stopBackgroundWork } from "@/server/jobs/worker";
import { heldWords, takeAlertMail } from "./mail-cap";

/** ALERT_MAIL_PER_HOUR: alert e-mails a store sends in an hour, held back past it, and the hour's summaries. */
const STORE = "mail-cap.example";
const notice = (id: string) => ({ id, organizationId: "org_cap", storeUrl: STORE });

beforeAll(() => {
  vi.stubEnv("ALERT_MAIL_PER_HOUR", "2");
  registerAllJobs();
});
afterAll(async () => {
  await stopBackgroundWork();
  vi.unstubAllEnvs();
});

describe("alert e-mail per store and hour", () => {
  it("takes the hour's bound once across 30 concurrent e-mails, holds the rest, and a retry finds what the first run decided", async () => {
    const db = reachDb(await database(), [STORE]);
    const now = new Date("2026-03-01T10:15:00Z");
    const taken = await Promise.all(Array.from({ length: 30 }, (_, n) => takeAlertMail(db, notice(`note_${n}`), "ops@example.com", now)));
    expect(taken.filter(Boolean)).toHaveLength(2);
    const held = taken.indexOf(false);
    expect(await takeAlertMail(db, notice(`note_${held}`), "ops@example.com", now)).toBe(false);
    const [row] = await db.query<{ count: number }>("select count(*)::int as count from alert_mail_held where store_url = $1", [STORE]);
    expect(row!.count).toBe(28);
    // The next hour starts a new count.
    expect(await takeAlertMail(db, notice("note_next_hour"), "ops@example.com", new Date("2026-03-01T11:00:00Z"))).toBe(true);
  });

  it("sends each address held back one summary after the hour, and no more summaries than the bound", async () => {
    const db = reachDb(await database(), [STORE]);
    const now = new Date("2026-03-02T09:30:00Z");
    for (const [n, email] of [
      "a@example.com",
      "a@example.com",
      "b@example.com",
      "a@example.com",
      "c@example.com",
      "b@example.com",
    ].entries())
      await takeAlertMail(db, notice(`summary_${n}`), email, now);
    // The hour's summary is queued for the hour's end (long past here: the worker, started now, runs it at once).
    startBackgroundWork({ pollMs: 25 });
    const key = `alerts.held-summary:${STORE}:2026-03-02T09:00:00.000Z`;
    await vi.waitFor(
      async () => {
        const [job] = await acrossStores(db, "a test", (tx) =>
          tx.query<{ state: string; runAt: Date }>(`select state, run_at as "runAt" from jobs where unique_key = $1`, [key]),
        );
        expect(job).toEqual({ state: "done", runAt: new Date("2026-03-02T10:00:00Z") });
      },
      { timeout: 15_000, interval: 50 },
    );
    const sent = await db.query<{ recipient: string; subject: string; text: string }>(
      `select recipient, subject, text_body as text from deliveries where key like $1 order by recipient`,
      [`${key}:%`],
    );
    // Two held for a (the first two went), one each for b and c… at most the bound (2): the most held first.
    expect(sent.map((message) => [message.recipient, message.subject])).toEqual([
      ["a@example.com", heldWords(1)],
      ["b@example.com", heldWords(2)],
    ]);
    expect(sent[0]!.text).toContain("the inbox keeps every alert");
    expect(heldWords(12)).toBe("12 alerts held back, see the inbox");
  });
});
