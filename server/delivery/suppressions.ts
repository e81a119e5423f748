import "server-only";
import { randomBytes } from "node:crypto";
import type { Db } from "@/server/db/database";

/** Addresses unsubscribed from a store's mail (migration 0014): its digests and alerts skip them until the address subscribes again. */
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

/** The unsubscribe link token of an address for the store's alert e-mails (made once, then reused). */
export async function unsubscribeTokenFor(db: Db, store: StoreOf, email: string): Promise<string> {
  const address = email.toLowerCase();
  await db.query(
    `insert into mail_unsubscribe_links (token, organization_id, store_url, email) values ($1, $2, $3, $4)
     on conflict (organization_id, store_url, email) do nothing`,
    [randomBytes(24).toString("base64url"), store.organizationId, store.storeUrl, address],
  );
  const [row] = await db.query<{ token: string }>(
    "select token from mail_unsubscribe_links where organization_id = $1 and store_url = $2 and email = $3",
    [store.organizationId, store.storeUrl, address],
  );
  return row!.token;
}

/** What an alert e-mail's unsubscribe link names: the address, its store, and whether it is suppressed. */
export async function storeLinkOf(
  db: Db,
  token: string,
): Promise<{ email: string; organizationId: string; storeUrl: string; unsubscribed: boolean } | null> {
  const [row] = await db.query<{ email: string; organizationId: string; storeUrl: string; unsubscribed: boolean }>(
    `select l.email, l.organization_id as "organizationId", l.store_url as "storeUrl",
       exists (select 1 from mail_suppressions s where s.organization_id = l.organization_id and s.store_url = l.store_url and s.email = l.email)
         as unsubscribed
     from mail_unsubscribe_links l where l.token = $1`,
    [token],
  );
  return row ?? null;
}
