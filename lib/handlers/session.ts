import "server-only";
import { z } from "zod";
import { safeNextPath } from "@/lib/safe-redirect";
import { contextSchema, type Context } from "@/lib/schemas/context";
import { demoSignInSchema, keySignInSchema, SESSION_STORES_LIMIT } from "@/lib/schemas/session";
import { resolveDemoKey } from "@/lib/server/demo-keys";
import { DashboardError, errorResponse, invalidInput, jsonResponse } from "@/lib/server/http";
import { clientAddress } from "@/lib/server/client-address";
import { fingerprintOf, resolveSession } from "@/lib/session/active";
import { forgetEndedReasonCookie } from "@/lib/session/ended";
import {
  clearedSessionCookies,
  newSessionData,
  sealedSessionCookie,
  sessionSetCookie,
  summarize,
  type SessionData,
} from "@/lib/session/session";
import { database } from "@/lib/store/database";
import { listRefusals } from "@/lib/store/key-refusals";
import { recordFailure, retryAfterSeconds } from "@/lib/store/rate-limits";
import { createSession, revokeSession } from "@/lib/store/sessions";
import { callUpstreamJson, UpstreamHttpError } from "@/lib/upstream/client";
import { endpointById } from "@/lib/upstream/endpoints";
import { toDashboardError } from "./errors";
import { route, SIGN_IN_BODY_LIMIT } from "./pipeline";

/** What the browser learns about a session: never the key. */
function sessionBody(session: SessionData, context?: Context) {
  return { session: summarize(session), ...(context ? { context } : {}) };
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
  const { data: context } = await callUpstreamJson(
    { endpoint: endpointById("context"), query: { organizationId }, apiKey, organizationId, requestId },
    contextSchema,
  );
  const organization = context.organizations.find((candidate) => candidate.id === organizationId) ?? context.organizations[0];
  const row = await createSession(
    await database(),
    {
      keyFingerprint: fingerprintOf(apiKey),
      userEmail: context.user.email,
      userName: context.user.name,
      organizationId: organizationId ?? organization?.id ?? null,
      organizationName: organization?.name ?? null,
      userAgent: request.headers.get("user-agent") ?? "",
      clientAddress: clientAddress(request) ?? "",
    },
    new Date(),
  );
  const session = newSessionData({
    sessionId: row.id,
    apiKey,
    organizationId: organizationId ?? organization?.id,
    organization: organization && { id: organization.id, name: organization.name },
    stores: (organization?.stores ?? []).slice(0, SESSION_STORES_LIMIT).map(({ url, type, currency }) => ({ url, type, currency })),
    user: { name: context.user.name, email: context.user.email },
  });
  return { session, context, cookie: await sessionSetCookie(session, request) };
}

/**
 * POST /api/session: sign in. Takes JSON from the page's script, or a plain form post sent
 * before any script runs; the form gets a 303 to the next page (or back to sign-in with the
 * reason), so the key never lands in a URL.
 */
export const signIn = route(
  {
    route: "POST /api/session",
    session: false,
    body: { schema: z.record(z.string(), z.unknown()), maxBytes: SIGN_IN_BODY_LIMIT, form: true },
  },
  async ({ request, requestId, body, form, log }) => {
    const next = safeNextPath(typeof body.next === "string" ? body.next : undefined);
    const client = clientAddress(request);
    try {
      // At most 10 failed sign-ins per client per minute, counted in the database: the limit holds across instances.
      const wait = client ? await retryAfterSeconds(await database(), client, new Date()) : 0;
      if (wait > 0) {
        throw new DashboardError(429, "rate_limited", `Too many failed sign-in attempts. Try again in ${wait} s.`, {
          retryAfter: String(wait),
        });
      }
      const { session, context, cookie } = await openSession(request, signInInput(body), requestId);
      const response = form
        ? new Response(null, { status: 303, headers: { location: next } })
        : jsonResponse(sessionBody(session, context), { requestId });
      response.headers.append("set-cookie", cookie);
      response.headers.append("set-cookie", forgetEndedReasonCookie(request));
      return response;
    } catch (error) {
      if (client && error instanceof UpstreamHttpError && error.status < 500) await recordFailure(await database(), client, new Date());
      const failure = toDashboardError(error);
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

/** GET /api/session: who is signed in, and the actions the upstream has refused this key; never the key. */
export const currentSession = route({ route: "GET /api/session" }, async ({ session, requestId }) => {
  const refusals = await listRefusals(await database(), session.keyFingerprint);
  return jsonResponse(
    {
      ...sessionBody(session.data),
      refusals: refusals.map(({ action, message, refusedAt }) => ({ action, message, refusedAt: refusedAt.toISOString() })),
    },
    { requestId },
  );
});

/** DELETE /api/session: sign out. The row is revoked, so a copy of the cookie no longer works anywhere. */
export const signOut = route({ route: "DELETE /api/session", session: false }, async ({ request, requestId }) => {
  const { session } = await resolveSession(sealedSessionCookie(request.headers.get("cookie")));
  if (session) await revokeSession(await database(), session.id, "session_revoked", new Date());
  const response = new Response(null, { status: 204, headers: { "x-request-id": requestId } });
  for (const cleared of clearedSessionCookies(request)) response.headers.append("set-cookie", cleared);
  response.headers.append("set-cookie", forgetEndedReasonCookie(request));
  return response;
});
