import "server-only";
import { sealData, unsealData } from "iron-session";
import { LRUCache } from "lru-cache";
import { z } from "zod";
import { identifierSchema } from "@/shared/schemas/common";
import { sessionSummarySchema } from "@/shared/schemas/session";
import { settings } from "@/server/config/settings";
import { PROTO_HEADER } from "@/server/http/forwarded";
import { sessionSecrets } from "./secrets";

/** Over HTTPS the cookie takes the `__Host-` prefix: Secure, Path=/, no Domain, so no other host can set it. */
export const SECURE_SESSION_COOKIE = "__Host-session";
export const SESSION_COOKIE = "session";

/** What the encrypted cookie holds. The key never leaves the server in clear. */
const sessionDataSchema = sessionSummarySchema.extend({
  /** The session's row in the database, which says whether it still counts. */
  sessionId: z.string().min(1),
  apiKey: z.string().min(1),
  organizationId: identifierSchema.optional(),
});
export type SessionData = z.infer<typeof sessionDataSchema>;

/** The session as the browser may see it: everything but the key and the row id. */
export type SessionSummary = Omit<SessionData, "apiKey" | "sessionId">;

/** Picks the fields the browser may see, by name, so a field added later is not shown by accident. */
export function summarize(session: SessionData): SessionSummary {
  const { organizationId, organization, stores, user, expiresAt } = session;
  return { organizationId, organization, stores, user, expiresAt };
}

export function newSessionData(input: Omit<SessionData, "expiresAt">): SessionData {
  return { ...input, expiresAt: Date.now() + settings().session.ttlSeconds * 1000 };
}

export async function sealSession(data: SessionData): Promise<string> {
  return sealData(data, { password: sessionSecrets().sealing, ttl: settings().session.ttlSeconds });
}

/**
 * Cookies already unsealed in this process, so that each request does not pay for the key
 * derivation again. Only cookies that unsealed successfully enter.
 */
const unsealed = new LRUCache<string, SessionData>({ max: 1_000 });

/**
 * The exact shape iron-session writes: eight `*`-separated parts and the version. iron-session
 * itself reads only up to the first `~`, so a seal with bytes appended (or written twice) would
 * unseal: such a cookie is tampered, and refused like any other.
 */
const SEAL_SHAPE = /^Fe26\.2(?:\*[0-9A-Za-z_-]*){7}~2$/;

/** A tampered, expired, unreadable or outdated cookie is no session at all. */
export async function unsealSession(sealed: string | undefined): Promise<SessionData | null> {
  if (!sealed || sealed.length > 4096 || !SEAL_SHAPE.test(sealed)) return null;
  const cached = unsealed.get(sealed);
  if (cached) {
    if (cached.expiresAt > Date.now()) return cached;
    unsealed.delete(sealed);
    return null;
  }
  try {
    const data = await unsealData(sealed, { password: sessionSecrets().unsealing, ttl: settings().session.ttlSeconds });
    const parsed = sessionDataSchema.safeParse(data);
    if (!parsed.success || parsed.data.expiresAt <= Date.now()) return null;
    unsealed.set(sealed, parsed.data);
    return parsed.data;
  } catch {
    return null;
  }
}

/**
 * Whether the browser reached the dashboard over HTTPS: directly, or through a proxy the
 * dashboard's own server vouches for (it sets x-dashboard-proto). SESSION_COOKIE_SECURE=1
 * forces Secure cookies, 0 turns them off.
 */
export function requestIsSecure(request: Request): boolean {
  const forced = settings().session.cookieSecure;
  if (forced !== undefined) return forced;
  return new URL(request.url).protocol === "https:" || request.headers.get(PROTO_HEADER) === "https";
}

function cookieAttributes(maxAgeSeconds: number, secure: boolean): string {
  return `Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure ? "; Secure" : ""}`;
}

export async function sessionSetCookie(data: SessionData, request: Request): Promise<string> {
  const secure = requestIsSecure(request);
  const maxAge = Math.max(0, Math.floor((data.expiresAt - Date.now()) / 1000));
  return `${secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE}=${await sealSession(data)}; ${cookieAttributes(maxAge, secure)}`;
}

/** Set-Cookie values that remove the session cookie under either name. */
export function clearedSessionCookies(request: Request): string[] {
  const cleared = [`${SESSION_COOKIE}=; ${cookieAttributes(0, requestIsSecure(request))}`];
  if (requestIsSecure(request)) cleared.push(`${SECURE_SESSION_COOKIE}=; ${cookieAttributes(0, true)}`);
  return cleared;
}

export function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const index = part.indexOf("=");
    if (index !== -1 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return undefined;
}

/** The sealed session cookie of a request, under either name. */
export function sealedSessionCookie(cookieHeader: string | null): string | undefined {
  return readCookie(cookieHeader, SECURE_SESSION_COOKIE) ?? readCookie(cookieHeader, SESSION_COOKIE);
}
