import "server-only";
import { withReach } from "@/server/db/reach";
import { z } from "zod";
import { safeNextPath } from "@/shared/safe-redirect";
import { contextSchema, type Context } from "@/shared/schemas/context";
import { demoSignInSchema, keySignInSchema, SESSION_STORES_LIMIT } from "@/shared/schemas/session";
import { resolveDemoKey } from "@/server/auth/demo-keys";
import { DashboardError, errorResponse, invalidInput, jsonResponse } from "@/server/http/responses";
import { clientAddress } from "@/server/http/client-address";
import { fingerprintOf, resolveSession } from "@/server/auth/current-session";
import { forgetEndedReasonCookie } from "@/server/auth/ended";
import {
  clearedSessionCookies,
  newSessionData,
  sealedSessionCookie,
  sessionSetCookies,
  summarize,
  type SessionData,
} from "@/server/auth/cookie";
import { rememberKeyReach, summarizeSession } from "@/server/auth/ring";
import { keyLabel } from "@/server/auth/key-identity";
import { database } from "@/server/db/database";
import { listRefusals } from "@/server/auth/key-refusals";
import { attemptSignIn, forgive } from "@/server/auth/rate-limits";
import { settings } from "@/server/config/settings";
import { createSession, revokeSession } from "@/server/auth/sessions";
import { renewGrantsOfKey } from "@/server/grants/store";
import { upstreamClient } from "@/server/upstream/client";
import { warmUp } from "@/server/rollups/fill-job";
import { toDashboardError } from "@/server/http/failures";
import { readRouteBody, route, SIGN_IN_BODY_LIMIT } from "@/server/http/pipeline";

/** What the browser learns about a session: never the key. */
function sessionBody(session: SessionData, context?: Context, label?: string) {
  const keys = label && [{ label, organization: session.organization, storeUrls: session.stores.map((store) => store.url) }];
  return { session: summarize(session, keys || undefined), ...(context ? { context } : {}) };
}

/** A form leaves empty fields behind; a demo key button sends its id next to an empty key field. */
function signInInput(body: Record<string, unknown>): z.infer<typeof keySignInSchema> | z.infer<typeof demoSignInSchema> {
  const fields = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== ""));
  if ("demoKeyId" in fields) delete fields.apiKey;
  const parsed = ("demoKeyId" in fields ? demoSignInSchema : keySignInSchema).safeParse(fields);
  if (!parsed.success) throw invalidInput("The sign-in", parsed.error.issues);
  return parsed.data;
}

/** Where a form post goes back to after a refusal: the sign-in page, with the reason and request id only. */
function backToSignIn(error: DashboardError, requestId: string, next: string): Response {
  const search = new URLSearchParams({ error: error.code, requestId: error.extra.upstreamRequestId ?? requestId, next });
  if (error.extra.retryAfter) search.set("retryAfter", error.extra.retryAfter);
  return new Response(null, { status: 303, headers: { location: `/sign-in?${search}` } });
}

async function openSession(request: Request, input: ReturnType<typeof signInInput>, requestId: string) {
  const { organizationId } = input;
  const apiKey = "apiKey" in input ? input.apiKey : resolveDemoKey(input.demoKeyId);
  if (!apiKey) throw new DashboardError(400, "bad_request", "That demo key is not available.");
  const { data: context } = await upstreamClient({ apiKey, organizationId, requestId }).json("context", contextSchema, {
    query: { organizationId },
  });
  const organization = context.organizations.find((candidate) => candidate.id === organizationId) ?? context.organizations[0];
  const db = await database();
  const keyFingerprint = await fingerprintOf(apiKey);
  // Signing in renews the key's grants (their lifetime counts from the owner's last sign-in).
  const reached = context.organizations.flatMap((candidate) => candidate.stores.map((store) => store.url));
  await withReach(db, reached, (tx) => renewGrantsOfKey(tx, keyFingerprint, settings().delegation.ttlDays, new Date()));
  const row = await createSession(
    db,
    {
      keyFingerprint,
      userEmail: context.user.email,
      userName: context.user.name,
      organizationId: organizationId ?? organization?.id ?? null,
      organizationName: organization?.name ?? null,
      userAgent: request.headers.get("user-agent") ?? "",
      clientAddress: clientAddress(request) ?? "",
      keyLabel: keyLabel(keyFingerprint),
      storeUrls: context.organizations.flatMap((candidate) => candidate.stores.map((store) => store.url)),
    },
    new Date(),
  );
  // The warm-up: the session's stores' last 13 months are filled in the background (with the rollups on).
  warmUp(
    upstreamClient({ apiKey, requestId }),
    (organization?.stores ?? []).slice(0, SESSION_STORES_LIMIT).map((store) => store.url),
  );
  // What the key reaches, for the scope checks of the session's first requests (a narrowed read is not its whole reach).
  if (!organizationId) rememberKeyReach(row.id, keyFingerprint, context);
  const session = newSessionData({
    sessionId: row.id,
    apiKey,
    organizationId: organizationId ?? organization?.id,
    organization: organization && { id: organization.id, name: organization.name },
    stores: (organization?.stores ?? []).slice(0, SESSION_STORES_LIMIT).map(({ url, type, currency }) => ({ url, type, currency })),
    user: { name: context.user.name, email: context.user.email },
  });
  return { session, context, label: keyLabel(keyFingerprint), cookies: await sessionSetCookies(session, request) };
}

/** POST /api/session: sign in, by JSON or a plain form post (303 onward, or back with the reason), so the key never lands in a URL. */
export const signIn = route(
  {
    methods: ["POST"],
    path: "/api/session",
    scope: "none",
    reason: "sign-in: there is no session yet",
    session: false,
  },
  async ({ request, requestId, log }) => {
    const client = clientAddress(request);
    const at = new Date();
    let next = safeNextPath(undefined);
    let form = false;
    let counted = false;
    try {
      // At most 10 failed sign-ins per client per minute, counted in the database before the body is read (a
      // malformed attempt counts too): the limit holds across instances and concurrent attempts.
      const wait = client ? await attemptSignIn(await database(), client, at) : 0;
      counted = Boolean(client) && wait === 0;
      if (wait > 0) {
        throw new DashboardError(429, "rate_limited", `Too many failed sign-in attempts. Try again in ${wait} s.`, {
          retryAfter: String(wait),
        });
      }
      const read = await readRouteBody(request, { schema: z.record(z.string(), z.unknown()), maxBytes: SIGN_IN_BODY_LIMIT, form: true });
      form = read.form;
      next = safeNextPath(typeof read.body.next === "string" ? read.body.next : undefined);
      const { session, context, label, cookies } = await openSession(request, signInInput(read.body), requestId);
      if (client) await forgive(await database(), client, at);
      const response = form
        ? new Response(null, { status: 303, headers: { location: next } })
        : jsonResponse(sessionBody(session, context, label), { requestId });
      for (const cookie of cookies) response.headers.append("set-cookie", cookie);
      response.headers.append("set-cookie", forgetEndedReasonCookie(request));
      return response;
    } catch (error) {
      const failure = toDashboardError(error);
      // Only the client's own failures count: the dashboard's trouble, or the upstream's, is forgiven.
      if (counted && (!failure || failure.status >= 500)) await forgive(await database(), client!, at).catch(() => undefined);
      if (!failure) throw error;
      log.upstreamRequestId = failure.extra.upstreamRequestId;
      log.code = failure.code;
      // A failed sign-in never leaves a session behind, not even the previous one.
      const response = form ? backToSignIn(failure, requestId, next) : errorResponse(failure, requestId);
      for (const cleared of clearedSessionCookies(request)) response.headers.append("set-cookie", cleared);
      return response;
    }
  },
);

/** GET /api/session: who is signed in, and the actions the upstream has refused the ring's keys; never a key. */
export const currentSession = route(
  { methods: ["GET"], path: "/api/session", scope: "none", reason: "the signed-in session itself" },
  async ({ session, requestId }) => {
    const refusals = await listRefusals(
      await database(),
      session.keys.map((key) => key.fingerprint),
    );
    return jsonResponse(
      {
        session: summarizeSession(session),
        refusals: refusals.map(({ action, message, refusedAt }) => ({ action, message, refusedAt: refusedAt.toISOString() })),
      },
      { requestId },
    );
  },
);

/** DELETE /api/session: sign out. The row is revoked, so a copy of the cookie no longer works anywhere. */
export const signOut = route(
  { methods: ["DELETE"], path: "/api/session", scope: "none", reason: "sign-out of the session itself", session: false },
  async ({ request, requestId }) => {
    const { session } = await resolveSession(sealedSessionCookie(request.headers.get("cookie")));
    if (session) await revokeSession(await database(), session.id, "session_revoked", new Date());
    const response = new Response(null, { status: 204, headers: { "x-request-id": requestId } });
    for (const cleared of clearedSessionCookies(request)) response.headers.append("set-cookie", cleared);
    response.headers.append("set-cookie", forgetEndedReasonCookie(request));
    return response;
  },
);
