import "server-only";
import type { Db } from "@/server/db/database";

/** A store's cap held under concurrency: inserts of one kind take turns on a transaction lock and count inside it. True under `limit`. */
export async function underStoreCap(tx: Db, kind: "alert_rules" | "digest_schedules", storeUrl: string, limit: number): Promise<boolean> {
  await tx.query("select pg_advisory_xact_lock(hashtext($1 || ':' || $2))", [kind, storeUrl]);
  const live = kind === "alert_rules" ? "and deleted_at is null" : "";
  const [row] = await tx.query<{ count: number }>(`select count(*)::int as count from ${kind} where store_url = $1 ${live}`, [storeUrl]);
  return row!.count < limit;
}
