import "server-only";
import { DEFAULT_AUDIT_RETENTION_DAYS, purgeAudit } from "./audit";
import type { Db } from "./database";
import { purgeIdempotency } from "./idempotency";
import { purgeFailures } from "./rate-limits";
import { purgeViews } from "./saved-views";

const PURGE_INTERVAL_MS = 60_000;
const lastPurge = new WeakMap<Db, number>();

/** AUDIT_RETENTION_DAYS, default 400. */
function auditRetentionDays(): number {
  const raw = process.env.AUDIT_RETENTION_DAYS;
  const days = raw ? Number(raw) : DEFAULT_AUDIT_RETENTION_DAYS;
  if (!Number.isInteger(days) || days <= 0) throw new Error(`AUDIT_RETENTION_DAYS must be a positive whole number, got "${raw}".`);
  return days;
}

/**
 * Deletes what has outlived its purpose: idempotency records past 24 h, audit entries past
 * their retention, sign-in failures out of their window, views deleted past the undo window.
 * Runs at most once a minute per database handle (any instance may do it; it is idempotent).
 */
export async function purgeExpired(db: Db, now: Date, options: { auditRetentionDays?: number; force?: boolean } = {}): Promise<boolean> {
  if (!options.force && now.getTime() - (lastPurge.get(db) ?? 0) < PURGE_INTERVAL_MS) return false;
  lastPurge.set(db, now.getTime());
  await purgeIdempotency(db, now);
  await purgeAudit(db, now, options.auditRetentionDays ?? auditRetentionDays());
  await purgeFailures(db, now);
  await purgeViews(db, now);
  return true;
}
