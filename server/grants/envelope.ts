import "server-only";
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";
import { settings } from "@/server/config/settings";
import { processSingleton } from "@/server/runtime/singleton";
import { demoDelegationKey } from "./demo-key";

/**
 * Envelope encryption of a granted key (AES-256-GCM twice), bound to the grant's id, organization, store and key fingerprint; master keys
 * are named by an id, so a rotation keeps old grants readable.
 */

interface MasterKey {
  id: string;
  key: Buffer;
}

/** What a sealed key is bound to: the grant it belongs to. */
export interface GrantBinding {
  grantId: string;
  organizationId: string;
  storeUrl: string;
  keyFingerprint: string;
}

export interface SealedKey {
  masterKeyId: string;
  wrappedDataKey: Buffer;
  sealedApiKey: Buffer;
  /** 1: bound to the grant id only (before migration 0014); 2: bound to the whole GrantBinding. */
  sealVersion: number;
}

const SEAL_VERSION = 2;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A grant sealed under a master key DELEGATION_KEY lacks: a configuration problem; the grant works again once the key is back. */
export class MasterKeyMissing extends Error {
  constructor(readonly masterKeyId: string) {
    super(`The master key ${masterKeyId} this grant was sealed with is not in DELEGATION_KEY.`);
  }
}

/** A grant whose sealed key fails its authentication under a master key that is present: damaged or altered. */
export class UnreadableGrant extends Error {}

function masterKey(secret: string): MasterKey {
  const key = Buffer.from(hkdfSync("sha256", secret, "store-analytics-dashboard", "delegation master key", 32));
  return { id: createHash("sha256").update(key).digest("hex").slice(0, 16), key };
}

/** The master keys of a DELEGATION_KEY list, newest first (check-config tries them on the stored grants). */
export const masterKeysFrom = (secrets: string[]): MasterKey[] => secrets.map(masterKey);

/** DELEGATION_KEY's keys, newest first; the demo keeps a generated one in its data folder, development one per process. */
function masterKeys(): MasterKey[] {
  const configured = settings().delegation.keys;
  if (configured.length > 0) return masterKeysFrom(configured);
  const demo = demoDelegationKey();
  if (demo) return [masterKey(demo)];
  return [processSingleton("generatedDelegationKey", () => masterKey(randomBytes(32).toString("base64url")))];
}

/** The ids of the master keys this process holds, newest first (readiness compares them with the grants'). */
export const masterKeyIds = (): string[] => masterKeys().map((key) => key.id);

function associatedData(layer: "data-key" | "api-key", binding: GrantBinding, version: number): Buffer {
  if (version === 1) return Buffer.from(`${layer}:${binding.grantId}`);
  return Buffer.from(JSON.stringify([layer, binding.grantId, binding.organizationId, binding.storeUrl, binding.keyFingerprint]));
}

function encrypt(key: Buffer, plain: Buffer, aad: Buffer): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES }).setAAD(aad);
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

/** The tag is always 16 bytes: a shorter (truncated) one is refused rather than checked on fewer bits. */
function decrypt(key: Buffer, sealed: Buffer, aad: Buffer): Buffer {
  if (sealed.length < IV_BYTES + TAG_BYTES) throw new Error("The sealed value is shorter than its IV and tag.");
  const decipher = createDecipheriv("aes-256-gcm", key, sealed.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES }).setAAD(aad);
  decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
}

/** Seals `apiKey` for the grant `binding` names, under the newest master key. */
export function sealApiKey(binding: GrantBinding, apiKey: string, keys: MasterKey[] = masterKeys()): SealedKey {
  const master = keys[0]!;
  const dataKey = randomBytes(32);
  return {
    masterKeyId: master.id,
    wrappedDataKey: encrypt(master.key, dataKey, associatedData("data-key", binding, SEAL_VERSION)),
    sealedApiKey: encrypt(dataKey, Buffer.from(apiKey, "utf8"), associatedData("api-key", binding, SEAL_VERSION)),
    sealVersion: SEAL_VERSION,
  };
}

/** Opens a grant's key: MasterKeyMissing when DELEGATION_KEY lacks its master key, UnreadableGrant when it fails under the key it names. */
export function openApiKey(binding: GrantBinding, sealed: SealedKey, keys: MasterKey[] = masterKeys()): string {
  const master = keys.find((key) => key.id === sealed.masterKeyId);
  if (!master) throw new MasterKeyMissing(sealed.masterKeyId);
  try {
    const dataKey = decrypt(master.key, sealed.wrappedDataKey, associatedData("data-key", binding, sealed.sealVersion));
    return decrypt(dataKey, sealed.sealedApiKey, associatedData("api-key", binding, sealed.sealVersion)).toString("utf8");
  } catch (error) {
    throw new UnreadableGrant("The grant's sealed key does not open (damaged or altered).", { cause: error });
  }
}

/** Whether it should be sealed again: under an older master key (a rotation), or with the older binding. */
export function needsReseal(sealed: Pick<SealedKey, "masterKeyId" | "sealVersion">): boolean {
  return masterKeys()[0]!.id !== sealed.masterKeyId || sealed.sealVersion < SEAL_VERSION;
}
