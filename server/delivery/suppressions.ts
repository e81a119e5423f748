import "server-only";
import type { Db } from "@/server/db/database";

/**
 * Addresses that unsubscribed from a store's mail (migration 0011). A digest or alert e-mail of
 * the store skips them, whoever adds them to a recipient list again; only the address itself
 * lifts it, by the "Subscribe again" button behind a link it received.
 */
interface StoreOf {
  organizationId: string;
  storeUrl: string;
}

export async function suppress(db: Db, store: StoreOf, email: string, now: Date): Promise<void> {
  await db.query(
    `insert into mail_suppressions (organization_id, store_url, email, suppressed_at) values ($1, $2, $3, $4)
     on conflict (organization_id, store_url, email) do nothing`,
    [store.organizationId, store.storeUrl, email.toLowerCase(), now],
  );
}

export async function liftSuppression(db: Db, store: StoreOf, email: string): Promise<void> {
  await db.query("delete from mail_suppressions where organization_id = $1 and store_url = $2 and email = $3", [
    store.organizationId,
    store.storeUrl,
    email.toLowerCase(),
  ]);
}

/** The addresses of `emails` the store may still write to, in their order. */
export async function unsuppressed(db: Db, store: StoreOf, emails: readonly string[]): Promise<string[]> {
  if (emails.length === 0) return [];
  const rows = await db.query<{ email: string }>(
    "select email from mail_suppressions where organization_id = $1 and store_url = $2 and email = any($3::text[])",
    [store.organizationId, store.storeUrl, emails.map((email) => email.toLowerCase())],
  );
  const suppressed = new Set(rows.map((row) => row.email));
  return emails.filter((email) => !suppressed.has(email.toLowerCase()));
}
