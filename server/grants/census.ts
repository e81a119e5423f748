import "server-only";
import type { Db } from "@/server/db/database";
import { acrossStores } from "@/server/db/reach";

/** Grants in force per master key id against DELEGATION_KEY's ids, so a key removed too early is named before anything fails. */
interface MasterKeyCount {
  masterKeyId: string;
  grants: number;
  /** Whether DELEGATION_KEY (or the demo's kept key) holds this master key. */
  present: boolean;
}

export function masterKeyCensus(counts: readonly { masterKeyId: string; grants: number }[], presentIds: readonly string[]) {
  const perKey: MasterKeyCount[] = counts.map((count) => ({ ...count, present: presentIds.includes(count.masterKeyId) }));
  return { perKey, missing: perKey.filter((count) => !count.present).map((count) => count.masterKeyId) };
}

/** One line: `3 under a1b2… (held), 2 under c3d4… (MISSING from DELEGATION_KEY)`. */
export function censusLine(perKey: readonly MasterKeyCount[]): string {
  if (perKey.length === 0) return "none in force";
  return perKey
    .map((count) => `${count.grants} under ${count.masterKeyId} (${count.present ? "held" : "MISSING from DELEGATION_KEY"})`)
    .join(", ");
}

/** The grants in force per master key id, across stores (grants of every store are counted, none is read). */
export function grantsPerMasterKey(db: Db): Promise<{ masterKeyId: string; grants: number }[]> {
  return acrossStores(db, "grants in force per master key id (readiness)", (tx) =>
    tx.query<{ masterKeyId: string; grants: number }>(
      `select master_key_id as "masterKeyId", count(*)::int as grants from grants where ended_at is null
       group by master_key_id order by count(*) desc, master_key_id`,
    ),
  );
}
