import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { settings } from "@/server/config/settings";
import { processSingleton } from "@/server/runtime/singleton";

/** iron-session seals with the highest numeric id of the map and unseals with the id named in the seal. */
type PasswordMap = Record<string, string>;

interface SessionSecrets {
  /** The newest secret only: used to seal. */
  sealing: PasswordMap;
  /** Every accepted secret: used to unseal, so cookies sealed before a rotation stay valid. */
  unsealing: PasswordMap;
}

/** A stable id per secret (not per position), so a secret added in front keeps the older cookies unsealing. */
function secretId(secret: string): string {
  return String(parseInt(createHash("sha256").update(secret).digest("hex").slice(0, 10), 16));
}

/** SESSION_SECRET's secrets, newest first (the settings check them); demo and development generate one per process. */
export function secretsFrom(configured: readonly string[]): SessionSecrets {
  const secrets =
    configured.length > 0
      ? configured
      : [
          processSingleton("generatedSessionSecret", () => {
            console.warn("SESSION_SECRET is not set: using a random secret for this process; sessions end when it restarts.");
            return randomBytes(32).toString("base64url");
          }),
        ];
  const newest = secrets[0]!;
  return {
    sealing: { [secretId(newest)]: newest },
    unsealing: Object.fromEntries(secrets.map((secret) => [secretId(secret), secret])),
  };
}

export function sessionSecrets(): SessionSecrets {
  return secretsFrom(settings().session.secrets);
}
