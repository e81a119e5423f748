import "server-only";
import { acrossStores } from "./reach";
import { settings } from "@/server/config/settings";
import { purgeAudit } from "./audit";
import { purgeCloneAttempts } from "./clone-attempts";
import type { Db } from "./database";
import { purgeIdempotency } from "./idempotency";
import { purgeFailures } from "./rate-limits";
import { purgeViews } from "./saved-views";
import { purgeSessions } from "./sessions";
import { purgeSendNowPresses } from "@/server/digests/send-now";
import { purgeGrantKeys } from "@/server/grants/store";

const PURGE_INTERVAL_MS = 60_000;
const lastPurge = new WeakMap<Db, number>();

/**
 * Deletes what has outlived its purpose: idempotency records past 24 h, audit entries past
 * their retention, sign-in failures out of their window, views deleted past the undo window,
 * sessions ended or expired a day ago, clone attempts as old as their idempotency records,
 * "Send now" presses out of their longest window (a day), the sealed keys of grants ended or
 * past their expiry.
 * Runs at most once a minute per database handle (any instance may do it; it is idempotent).
 */
export async function purgeExpired(db: Db, now: Date, options: { auditRetentionDays?: number; force?: boolean } = {}): Promise<boolean> {
  if (!options.force && now.getTime() - (lastPurge.get(db) ?? 0) < PURGE_INTERVAL_MS) return false;
  lastPurge.set(db, now.getTime());
  await acrossStores(db, "purge of expired rows", async (tx) => {
    await purgeIdempotency(tx, now);
    await purgeAudit(tx, now, options.auditRetentionDays ?? settings().auditRetentionDays);
    await purgeFailures(tx, now);
    await purgeViews(tx, now);
    await purgeSessions(tx, now, settings().session.ttlSeconds);
    await purgeCloneAttempts(tx, now);
    await purgeSendNowPresses(tx, now);
    await purgeGrantKeys(tx, now);
  });
  return true;
}
