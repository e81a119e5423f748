import "server-only";
import type { Db } from "@/server/db/database";

/**
 * A store's stated cap (shared/limits.ts) held under concurrency: inserts of one kind into one store take turns on a transaction-scoped
 * lock, and the count is read inside the turn, in the transaction that then inserts. True while the store holds fewer than `limit`.
 */
export async function underStoreCap(tx: Db, kind: "alert_rules" | "digest_schedules", storeUrl: string, limit: number): Promise<boolean> {
  await tx.query("select pg_advisory_xact_lock(hashtext($1 || ':' || $2))", [kind, storeUrl]);
  const live = kind === "alert_rules" ? "and deleted_at is null" : "";
  const [row] = await tx.query<{ count: number }>(`select count(*)::int as count from ${kind} where store_url = $1 ${live}`, [storeUrl]);
  return row!.count < limit;
}
