import "server-only";
import { acrossStores, ownerOf } from "@/server/db/reach";
import { createHmac, randomBytes } from "node:crypto";
import type { Db } from "@/server/db/database";

/** A key's database identity: HMAC-SHA256 under a per-database pepper, stable across SESSION_SECRET rotation. */
const PEPPER = "key_fingerprint_pepper";
const PREFIX = "kf2_";

const peppers = new WeakMap<Db, Promise<Buffer>>();

/** The database's pepper, made by whichever instance asks first (the others read the same one); the owner's alone. */
function pepperOf(app: Db): Promise<Buffer> {
  const db = ownerOf(app);
  let pepper = peppers.get(db);
  if (!pepper) {
    pepper = (async () => {
      await db.query("insert into dashboard_secrets (name, value, created_at) values ($1, $2, $3) on conflict (name) do nothing", [
        PEPPER,
        randomBytes(32).toString("base64url"),
        new Date(),
      ]);
      const [row] = await db.query<{ value: string }>("select value from dashboard_secrets where name = $1", [PEPPER]);
      return Buffer.from(row!.value, "base64url");
    })();
    pepper.catch(() => peppers.delete(db));
    peppers.set(db, pepper);
  }
  return pepper;
}

export async function keyFingerprint(db: Db, apiKey: string): Promise<string> {
  return (
    PREFIX +
    createHmac("sha256", await pepperOf(db))
      .update(apiKey)
      .digest("hex")
  );
}

/** A key's short, non-secret name (the ring, the Activity list): a few characters of its fingerprint. */
export function keyLabel(fingerprint: string): string {
  return `key ${fingerprint.replace(/^kf2_/, "").slice(0, 6)}`;
}

/** Whether a fingerprint was made before key identities had their own pepper (keyed by a session secret). */
export function isLegacyFingerprint(fingerprint: string): boolean {
  return !fingerprint.startsWith(PREFIX);
}

/** The fingerprints earlier versions wrote for a key: one per session secret that may have keyed them. */
export function legacyFingerprints(apiKey: string, secrets: readonly string[]): string[] {
  return secrets.map((secret) => createHmac("sha256", secret).update(apiKey).digest("hex"));
}

/** Moves a key's rows from its legacy fingerprints to its current one; the key is never stored, so this happens only in its presence. */
export async function adoptLegacyRows(db: Db, fingerprint: string, legacy: readonly string[]): Promise<void> {
  if (legacy.length === 0) return;
  await acrossStores(db, "a key's rows move to its current fingerprint", async (tx) => {
    await tx.query("update sessions set key_fingerprint = $1 where key_fingerprint = any($2::text[])", [fingerprint, legacy]);
    await tx.query(
      `update session_keys k set key_fingerprint = $1 where key_fingerprint = any($2::text[])
       and not exists (select 1 from session_keys c where c.session_id = k.session_id and c.key_fingerprint = $1)`,
      [fingerprint, legacy],
    );
    await tx.query(
      `update idempotency_records r set key_fingerprint = $1 where key_fingerprint = any($2::text[])
       and not exists (select 1 from idempotency_records c where c.key_fingerprint = $1 and c.idempotency_key = r.idempotency_key)`,
      [fingerprint, legacy],
    );
    await tx.query(
      `update key_refusals r set key_fingerprint = $1 where key_fingerprint = any($2::text[])
       and not exists (select 1 from key_refusals c where c.key_fingerprint = $1 and c.action = r.action)`,
      [fingerprint, legacy],
    );
  });
}
