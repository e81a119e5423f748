import "server-only";
import type { AuditAction } from "@/shared/schemas/activity";
import type { Db } from "@/server/db/database";

/** The upstream refused an action with 403 for a key: remembered so the pages can say so before the next try. */
interface KeyRefusal {
  action: AuditAction;
  message: string;
  refusedAt: Date;
}

export async function rememberRefusal(db: Db, fingerprint: string, action: AuditAction, message: string, at: Date): Promise<void> {
  await db.query(
    `insert into key_refusals (key_fingerprint, action, message, refused_at) values ($1, $2, $3, $4)
     on conflict (key_fingerprint, action) do update set message = excluded.message, refused_at = excluded.refused_at`,
    [fingerprint, action, message.slice(0, 1000), at],
  );
}

/** What the upstream refused any of `fingerprints` (the keys a ring holds), each action once: its latest refusal. */
export async function listRefusals(db: Db, fingerprints: readonly string[]): Promise<KeyRefusal[]> {
  return db.query<KeyRefusal>(
    `select distinct on (action) action, message, refused_at as "refusedAt" from key_refusals
     where key_fingerprint = any($1::text[]) order by action, refused_at desc`,
    [fingerprints],
  );
}
