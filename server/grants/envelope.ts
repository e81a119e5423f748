import "server-only";
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";
import { settings } from "@/server/config/settings";
import { processSingleton } from "@/server/runtime/singleton";

/**
 * Envelope encryption of a granted API key (AES-256-GCM twice): the key is sealed with a random
 * data key of its own grant, and the data key is wrapped by a master key from DELEGATION_KEY.
 * Master keys are named by an id derived from them, so a rotation (a new key first, the old
 * ones after it) keeps old grants readable; the master keys themselves never reach the database.
 */

interface MasterKey {
  id: string;
  key: Buffer;
}

export interface SealedKey {
  masterKeyId: string;
  wrappedDataKey: Buffer;
  sealedApiKey: Buffer;
}

/** A grant sealed under a master key that is no longer configured, or tampered with. */
export class UnreadableGrant extends Error {}

function masterKey(secret: string): MasterKey {
  const key = Buffer.from(hkdfSync("sha256", secret, "store-analytics-dashboard", "delegation master key", 32));
  return { id: createHash("sha256").update(key).digest("hex").slice(0, 16), key };
}

/** The master keys of a DELEGATION_KEY list, newest first (check-config tries them on the stored grants). */
export const masterKeysFrom = (secrets: string[]): MasterKey[] => secrets.map(masterKey);

/** DELEGATION_KEY's keys, newest first; the demo and development generate one per process. */
function masterKeys(): MasterKey[] {
  const configured = settings().delegation.keys;
  if (configured.length > 0) return masterKeysFrom(configured);
  return [processSingleton("generatedDelegationKey", () => masterKey(randomBytes(32).toString("base64url")))];
}

function encrypt(key: Buffer, plain: Buffer, aad: string): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv).setAAD(Buffer.from(aad));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

function decrypt(key: Buffer, sealed: Buffer, aad: string): Buffer {
  const decipher = createDecipheriv("aes-256-gcm", key, sealed.subarray(0, 12)).setAAD(Buffer.from(aad));
  decipher.setAuthTag(sealed.subarray(12, 28));
  return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]);
}

/** Seals `apiKey` for the grant `grantId` (bound to it: a sealed key copied to another grant does not open). */
export function sealApiKey(grantId: string, apiKey: string, keys: MasterKey[] = masterKeys()): SealedKey {
  const master = keys[0]!;
  const dataKey = randomBytes(32);
  return {
    masterKeyId: master.id,
    wrappedDataKey: encrypt(master.key, dataKey, `data-key:${grantId}`),
    sealedApiKey: encrypt(dataKey, Buffer.from(apiKey, "utf8"), `api-key:${grantId}`),
  };
}

export function openApiKey(grantId: string, sealed: SealedKey, keys: MasterKey[] = masterKeys()): string {
  const master = keys.find((key) => key.id === sealed.masterKeyId);
  if (!master) throw new UnreadableGrant("The master key this grant was sealed with is no longer in DELEGATION_KEY.");
  try {
    const dataKey = decrypt(master.key, sealed.wrappedDataKey, `data-key:${grantId}`);
    return decrypt(dataKey, sealed.sealedApiKey, `api-key:${grantId}`).toString("utf8");
  } catch (error) {
    throw new UnreadableGrant("The grant's sealed key does not open (damaged or altered).", { cause: error });
  }
}

/** Whether the newest master key sealed it (otherwise a rotation left it under an older one). */
export function sealedWithNewest(sealed: Pick<SealedKey, "masterKeyId">): boolean {
  return masterKeys()[0]!.id === sealed.masterKeyId;
}
