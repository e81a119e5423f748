import "server-only";
import { sealData, unsealData } from "iron-session";
import { z } from "zod";
import { identifierSchema } from "@/lib/schemas/common";
import { sessionSummarySchema } from "@/lib/schemas/session";
import { sessionTtlSeconds } from "@/lib/server/config";
import { sessionSecrets } from "./secrets";

export const SESSION_COOKIE = "session";

/** What the encrypted cookie holds. The key never leaves the server in clear. */
export const sessionDataSchema = sessionSummarySchema.extend({
  apiKey: z.string().min(1),
  organizationId: identifierSchema.optional(),
});
export type SessionData = z.infer<typeof sessionDataSchema>;

/** The session as the browser may see it: everything but the key. */
export type SessionSummary = Omit<SessionData, "apiKey">;

/** Picks the fields the browser may see, by name, so a field added later is not shown by accident. */
export function summarize(session: SessionData): SessionSummary {
  const { organizationId, organization, stores, user, expiresAt } = session;
  return { organizationId, organization, stores, user, expiresAt };
}

export function newSessionData(input: Omit<SessionData, "expiresAt">): SessionData {
  return { ...input, expiresAt: Date.now() + sessionTtlSeconds() * 1000 };
}

export async function sealSession(data: SessionData): Promise<string> {
  return sealData(data, { password: sessionSecrets().sealing, ttl: sessionTtlSeconds() });
}

/**
 * Cookies already unsealed in this process, so that each request does not pay for the key
 * derivation again. Only cookies that unsealed successfully enter; each leaves when its
 * session expires or when the cache is full.
 */
const unsealed = new Map<string, SessionData>();
const UNSEALED_CACHE_SIZE = 1_000;

/** A tampered, expired, unreadable or outdated cookie is no session at all. */
export async function unsealSession(sealed: string | undefined): Promise<SessionData | null> {
  if (!sealed || sealed.length > 4096) return null;
  const cached = unsealed.get(sealed);
  if (cached) {
    if (cached.expiresAt > Date.now()) return cached;
    unsealed.delete(sealed);
    return null;
  }
  try {
    const data = await unsealData(sealed, { password: sessionSecrets().unsealing, ttl: sessionTtlSeconds() });
    const parsed = sessionDataSchema.safeParse(data);
    if (!parsed.success || parsed.data.expiresAt <= Date.now()) return null;
    if (unsealed.size >= UNSEALED_CACHE_SIZE) unsealed.delete(unsealed.keys().next().value!);
    unsealed.set(sealed, parsed.data);
    return parsed.data;
  } catch {
    return null;
  }
}

function cookieAttributes(maxAgeSeconds: number): string {
  const secure = process.env.NODE_ENV === "production" && process.env.SESSION_COOKIE_SECURE !== "0";
  return `Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure ? "; Secure" : ""}`;
}

export async function sessionSetCookie(data: SessionData): Promise<string> {
  const maxAge = Math.max(0, Math.floor((data.expiresAt - Date.now()) / 1000));
  return `${SESSION_COOKIE}=${await sealSession(data)}; ${cookieAttributes(maxAge)}`;
}

export function clearedSessionCookie(): string {
  return `${SESSION_COOKIE}=; ${cookieAttributes(0)}`;
}

export function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const index = part.indexOf("=");
    if (index !== -1 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return undefined;
}

export async function sessionFromRequest(request: Request): Promise<SessionData | null> {
  return unsealSession(readCookie(request.headers.get("cookie"), SESSION_COOKIE));
}
