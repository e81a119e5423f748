import "server-only";
import { acrossStores } from "@/server/db/reach";
import { settings } from "@/server/config/settings";
import { purgeAudit } from "@/server/audit/audit";
import { purgeCloneAttempts } from "@/server/actions/clone-attempts";
import type { Db } from "@/server/db/database";
import { purgeIdempotency } from "@/server/actions/idempotency";
import { purgeFailures } from "@/server/auth/rate-limits";
import { purgeViews } from "@/server/saved-views/repository";
import { purgeSessions } from "@/server/auth/sessions";
import { purgeSendNowPresses } from "@/server/digests/send-now";
import { purgeGrantKeys } from "@/server/grants/store";

/**
 * Deletes what outlived its purpose: idempotency records, audit entries, sign-in failures, deleted views, ended sessions, clone attempts,
 * "Send now" presses, ended grants' keys. Idempotent; a recurring job runs it.
 */
export async function purgeExpired(db: Db, now: Date, auditRetentionDays = settings().auditRetentionDays): Promise<string> {
  return acrossStores(db, "purge of expired rows", async (tx) => {
    const counts = {
      "idempotency records": await purgeIdempotency(tx, now),
      "audit entries": await purgeAudit(tx, now, auditRetentionDays),
      "sign-in failures": await purgeFailures(tx, now),
      "deleted views": await purgeViews(tx, now),
      sessions: await purgeSessions(tx, now, settings().session.ttlSeconds),
      "clone attempts": await purgeCloneAttempts(tx, now),
      "send-now presses": await purgeSendNowPresses(tx, now),
      "grants ended": await purgeGrantKeys(tx, now),
    };
    return Object.entries(counts)
      .map(([what, count]) => `${count} ${what}`)
      .join(", ");
  });
}
