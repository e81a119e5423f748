import "server-only";

/**
 * Settings read from the environment. Each is a function so that `next build` never needs
 * them, and tests can change the environment between calls.
 */

const DEFAULT_UPSTREAM_TIMEOUT_MS = 15_000;
const DEFAULT_SESSION_TTL_SECONDS = 8 * 60 * 60;
const DEFAULT_SESSION_IDLE_SECONDS = 60 * 60;

function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) {
    throw new Error(`${name} must be a positive whole number, got "${raw}".`);
  }
  return value;
}

/** The upstream base URL, ending in /v1 (contract part 9). */
export function upstreamBaseUrl(): string {
  const raw = process.env.UPSTREAM_BASE_URL;
  if (!raw) {
    throw new Error("UPSTREAM_BASE_URL is not set: start the dashboard with `npm start`, which runs the demo upstream.");
  }
  const url = new URL(raw);
  if (!/\/v1\/?$/.test(url.pathname)) throw new Error(`UPSTREAM_BASE_URL must end in /v1, got "${raw}".`);
  return url.toString().replace(/\/$/, "");
}

export function upstreamTimeoutMs(): number {
  return positiveInteger("UPSTREAM_TIMEOUT_MS", DEFAULT_UPSTREAM_TIMEOUT_MS);
}

export function sessionTtlSeconds(): number {
  return positiveInteger("SESSION_TTL_SECONDS", DEFAULT_SESSION_TTL_SECONDS);
}

/** A session unused for this long ends, whenever it began. */
export function sessionIdleSeconds(): number {
  return positiveInteger("SESSION_IDLE_SECONDS", DEFAULT_SESSION_IDLE_SECONDS);
}

export function isProduction(): boolean {
  return process.env.NODE_ENV === "production" && process.env.DEMO_MODE !== "1";
}

/** Demo mode: the embedded demo upstream is in use, so its keys may be offered on the sign-in page. */
export function isDemoMode(): boolean {
  return process.env.DEMO_MODE === "1";
}
