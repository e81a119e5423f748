import "server-only";
import { sealData, unsealData } from "iron-session";
import { LRUCache } from "lru-cache";
import { z } from "zod";
import { identifierSchema } from "@/shared/schemas/common";
import { RING_LIMIT, SESSION_STORES_LIMIT, sessionSummarySchema, type SessionSummaryView } from "@/shared/schemas/session";
import { settings } from "@/server/config/settings";
import { PROTO_HEADER } from "@/server/http/forwarded";
import { sessionSecrets } from "./secrets";

/** Over HTTPS the cookie takes the `__Host-` prefix: Secure, Path=/, no Domain, so no other host can set it. */
const SECURE_SESSION_COOKIE = "__Host-session";
const SESSION_COOKIE = "session";

/** A key added to the session after sign-in (the key ring), with what its GET /context showed. */
const ringKeySchema = z.strictObject({
  apiKey: z.string().min(1),
  organizationId: identifierSchema.optional(),
  organization: z.strictObject({ id: z.string(), name: z.string() }).optional(),
  stores: z.array(z.strictObject({ url: z.string(), type: z.string(), currency: z.string() })).max(SESSION_STORES_LIMIT),
});
export type RingKeyData = z.infer<typeof ringKeySchema>;

/** What the encrypted cookie holds. The keys never leave the server in clear. */
const sessionDataSchema = sessionSummarySchema.omit({ keys: true }).extend({
  /** The session's row in the database, which says whether it still counts. */
  sessionId: z.string().min(1),
  apiKey: z.string().min(1),
  organizationId: identifierSchema.optional(),
  /** The other keys of the ring (the one above is only the first in the order they were added). */
  ring: z
    .array(ringKeySchema)
    .max(RING_LIMIT - 1)
    .optional(),
  /** The ring's version this cookie was sealed with (server/auth/session-keys.ts, `changeRing`); absent: 0. */
  ringVersion: z.number().int().min(0).optional(),
});
export type SessionData = z.infer<typeof sessionDataSchema>;

/** The session as the browser may see it: everything but the keys and the row id. */
export type SessionSummary = SessionSummaryView;

/** Picks by name the fields the browser sees, so a field added later is not shown by accident (`keys`: labels and stores, never a key). */
export function summarize(session: SessionData, keys?: SessionSummaryView["keys"]): SessionSummary {
  const { organizationId, organization, stores, user, expiresAt } = session;
  return { organizationId, organization, stores, user, expiresAt, ...(keys ? { keys } : {}) };
}

export function newSessionData(input: Omit<SessionData, "expiresAt">): SessionData {
  return { ...input, expiresAt: Date.now() + settings().session.ttlSeconds * 1000 };
}

export async function sealSession(data: SessionData): Promise<string> {
  return sealData(data, { password: sessionSecrets().sealing, ttl: settings().session.ttlSeconds });
}

/** Cookies already unsealed here, so a request does not pay the key derivation again; only successful unseals enter. */
const unsealed = new LRUCache<string, SessionData>({ max: 1_000 });

/** iron-session's exact shape: it reads only up to the first `~`, so a seal with bytes appended would unseal; such a cookie is refused. */
const SEAL_SHAPE = /^Fe26\.2(?:\*[0-9A-Za-z_-]*){7}~2$/;

/** Browsers keep at most 4096 bytes per cookie: a ring's seal is cut into parts (`session`, `session.1`…) joined on read. */
const COOKIE_PART = 3800;
const MAX_COOKIE_PARTS = 4;
const MAX_SEALED_LENGTH = COOKIE_PART * MAX_COOKIE_PARTS;

/** A tampered, expired, unreadable or outdated cookie is no session at all. */
export async function unsealSession(sealed: string | undefined): Promise<SessionData | null> {
  if (!sealed || sealed.length > MAX_SEALED_LENGTH || !SEAL_SHAPE.test(sealed)) return null;
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

/** Whether the browser used HTTPS, directly or via a proxy our server vouches for (x-dashboard-proto); SESSION_COOKIE_SECURE overrides. */
export function requestIsSecure(request: Request): boolean {
  const forced = settings().session.cookieSecure;
  if (forced !== undefined) return forced;
  return new URL(request.url).protocol === "https:" || request.headers.get(PROTO_HEADER) === "https";
}

function cookieAttributes(maxAgeSeconds: number, secure: boolean): string {
  return `Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure ? "; Secure" : ""}`;
}

const partName = (name: string, index: number) => (index === 0 ? name : `${name}.${index}`);

/** The session is too large for its cookies (a ring of very long keys). */
export class SessionTooLarge extends Error {}

/** Set-Cookie values for a session's seal, in one cookie or in parts; parts a shorter seal no longer needs are removed. */
export async function sessionSetCookies(data: SessionData, request: Request): Promise<string[]> {
  const secure = requestIsSecure(request);
  const name = secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
  const maxAge = Math.max(0, Math.floor((data.expiresAt - Date.now()) / 1000));
  const sealed = await sealSession(data);
  if (sealed.length > MAX_SEALED_LENGTH) throw new SessionTooLarge();
  const cookies: string[] = [];
  // Parts left over from a longer seal are harmless: reading stops once the seal is whole.
  for (let index = 0; index * COOKIE_PART < sealed.length; index += 1) {
    cookies.push(
      `${partName(name, index)}=${sealed.slice(index * COOKIE_PART, (index + 1) * COOKIE_PART)}; ${cookieAttributes(maxAge, secure)}`,
    );
  }
  return cookies;
}

/** Set-Cookie values that remove the session cookie under either name, then the parts of a ring's seal. */
export function clearedSessionCookies(request: Request): string[] {
  const secure = requestIsSecure(request);
  const names = secure ? [SESSION_COOKIE, SECURE_SESSION_COOKIE] : [SESSION_COOKIE];
  const cleared: string[] = [];
  for (let index = 0; index < MAX_COOKIE_PARTS; index += 1)
    for (const name of names) cleared.push(`${partName(name, index)}=; ${cookieAttributes(0, secure || name === SECURE_SESSION_COOKIE)}`);
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

/** A seal read back from its parts (`read` gives a cookie's value by name). */
export function joinSessionParts(read: (name: string) => string | undefined): string | undefined {
  for (const name of [SECURE_SESSION_COOKIE, SESSION_COOKIE]) {
    const first = read(name);
    if (first === undefined) continue;
    // A whole seal ends with "~2", which no part of one contains: stop there, whatever parts follow.
    let sealed = first;
    for (let index = 1; index < MAX_COOKIE_PARTS && !SEAL_SHAPE.test(sealed); index += 1) {
      const part = read(partName(name, index));
      if (!part) break;
      sealed += part;
    }
    return sealed;
  }
  return undefined;
}

/** The sealed session cookie of a request, under either name, its parts joined. */
export function sealedSessionCookie(cookieHeader: string | null): string | undefined {
  return joinSessionParts((name) => readCookie(cookieHeader, name));
}
