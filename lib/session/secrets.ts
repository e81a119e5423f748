import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { isProduction } from "@/lib/server/config";
import { processSingleton } from "@/lib/server/singleton";

const MIN_SECRET_LENGTH = 32;

/** iron-session seals with the highest numeric id of the map and unseals with the id named in the seal. */
type PasswordMap = Record<string, string>;

interface SessionSecrets {
  /** The newest secret only: used to seal. */
  sealing: PasswordMap;
  /** Every accepted secret: used to unseal, so cookies sealed before a rotation stay valid. */
  unsealing: PasswordMap;
}

/**
 * A stable id per secret (not per position), so adding a new secret in front of the list
 * keeps the ids of the older ones, and their cookies still unseal.
 */
function secretId(secret: string): string {
  return String(parseInt(createHash("sha256").update(secret).digest("hex").slice(0, 10), 16));
}

/**
 * Parses SESSION_SECRET: one secret, or several separated by commas, newest first.
 * Production refuses to start without it; demo and development mode generate one per process.
 */
export function parseSessionSecrets(raw: string | undefined, production: boolean): SessionSecrets {
  let secrets = (raw ?? "")
    .split(",")
    .map((secret) => secret.trim())
    .filter(Boolean);
  if (secrets.length === 0) {
    if (production) {
      throw new Error(
        `SESSION_SECRET is required in production: set it to a random string of at least ${MIN_SECRET_LENGTH} characters (for example \`openssl rand -base64 48\`).`,
      );
    }
    secrets = [
      processSingleton("generatedSessionSecret", () => {
        console.warn("SESSION_SECRET is not set: using a random secret for this process; sessions end when it restarts.");
        return randomBytes(32).toString("base64url");
      }),
    ];
  }
  const short = secrets.findIndex((secret) => secret.length < MIN_SECRET_LENGTH);
  if (short !== -1) {
    throw new Error(
      `SESSION_SECRET: secret number ${short + 1} is ${secrets[short]!.length} characters long; each must have at least ${MIN_SECRET_LENGTH}.`,
    );
  }
  const newest = secrets[0]!;
  return {
    sealing: { [secretId(newest)]: newest },
    unsealing: Object.fromEntries(secrets.map((secret) => [secretId(secret), secret])),
  };
}

export function sessionSecrets(): SessionSecrets {
  return parseSessionSecrets(process.env.SESSION_SECRET, isProduction());
}
