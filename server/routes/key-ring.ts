import "server-only";
import { warmUp } from "@/server/rollups/fill-job";
import { z } from "zod";
import { safeNextPath } from "@/shared/safe-redirect";
import { contextSchema } from "@/shared/schemas/context";
import { RING_LIMIT, SESSION_STORES_LIMIT, addKeySchema, removeKeySchema } from "@/shared/schemas/session";
import { resolveDemoKey } from "@/server/auth/demo-keys";
import { clearedSessionCookies, sessionSetCookies, SessionTooLarge, type RingKeyData } from "@/server/auth/cookie";
import { forgetEndedReasonCookie } from "@/server/auth/ended";
import { forgetReach } from "@/server/auth/key-reach";
import { rememberKeyReach, summarizeSession, withKeys, type SessionKey } from "@/server/auth/ring";
import type { ActiveSession } from "@/server/auth/current-session";
import { database, type Db } from "@/server/db/database";
import { keyFingerprint, keyLabel } from "@/server/auth/key-identity";
import { addSessionKey, changeRing, removeSessionKey } from "@/server/auth/session-keys";
import { revokeSession } from "@/server/auth/sessions";
import { toDashboardError } from "@/server/http/failures";
import { route, SIGN_IN_BODY_LIMIT } from "@/server/http/pipeline";
import { DashboardError, errorResponse, invalidInput, jsonResponse } from "@/server/http/responses";
import { upstreamClient } from "@/server/upstream/client";
import { renewGrantsOfKey } from "@/server/grants/store";
import { settings } from "@/server/config/settings";
import { withReach } from "@/server/db/reach";

const RING_PAGE = "/context";

/** A form leaves empty fields behind; a demo key button sends its id next to an empty key field. */
function addInput(body: Record<string, unknown>): z.infer<typeof addKeySchema> {
  const fields = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== ""));
  if ("demoKeyId" in fields) delete fields.apiKey;
  const parsed = addKeySchema.safeParse(fields);
  if (!parsed.success) throw invalidInput("The key", parsed.error.issues);
  return parsed.data;
}

/** A form post goes back to the ring's page with the outcome in words it knows (never the key); a script gets JSON. */
function answer(form: boolean, next: string, search: Record<string, string>, json: () => Response): Response {
  if (!form) return json();
  const location = `${next}${next.includes("?") ? "&" : "?"}${new URLSearchParams(search)}`;
  return new Response(null, { status: 303, headers: { location } });
}

/** The added key's refusal in the sign-in's words; its 401 is the new key's, so it is answered 422 and never ends the session. */
function refusal(form: boolean, next: string, error: DashboardError, requestId: string): Response {
  const id = error.extra.upstreamRequestId ?? requestId;
  const answered = error.status === 401 ? new DashboardError(422, error.code, error.message, error.extra) : error;
  return answer(form, next, { ringError: error.code, requestId: id }, () => errorResponse(answered, requestId));
}

async function withCookies(response: Response, data: ActiveSession["data"], request: Request) {
  for (const cookie of await sessionSetCookies(data, request)) response.headers.append("set-cookie", cookie);
  return response;
}

/** The ring's change from this cookie only; the version moves on so only the new cookie counts. Another tab changed it first: 409. */
async function changed(session: ActiveSession, keys: readonly RingKeyData[], change: (tx: Db) => Promise<void>) {
  const ringVersion = await changeRing(await database(), session.id, session.data.ringVersion ?? 0, change);
  if (ringVersion === null) throw new DashboardError(409, "ring_changed");
  return { ...withKeys(session.data, keys), ringVersion };
}

/** Reads the new key's context with the key itself; the session's own keys are not involved. */
async function readKey(input: z.infer<typeof addKeySchema>, requestId: string) {
  const apiKey = "apiKey" in input ? input.apiKey : resolveDemoKey(input.demoKeyId);
  if (!apiKey) throw new DashboardError(400, "bad_request", "That demo key is not available.");
  const { data: context } = await upstreamClient({ apiKey, requestId }).json("context", contextSchema, {});
  const organization = context.organizations.find((candidate) => candidate.stores.length > 0) ?? context.organizations[0];
  const key: RingKeyData = {
    apiKey,
    organizationId: organization?.id,
    organization: organization && { id: organization.id, name: organization.name },
    stores: (organization?.stores ?? []).slice(0, SESSION_STORES_LIMIT).map(({ url, type, currency }) => ({ url, type, currency })),
  };
  return { key, context };
}

/**
 * POST /api/session/keys: adds another store's key to the ring, by form post (303) or JSON, never in a URL. Checked upstream first; a
 * refused key or one whose store is already in the ring changes nothing.
 */
export const addRingKey = route(
  {
    methods: ["POST"],
    path: "/api/session/keys",
    scope: "none",
    reason: "adds a key to the signed-in session's own ring: its store is checked with that key, not with the session's",
    body: { schema: z.record(z.string(), z.unknown()), maxBytes: SIGN_IN_BODY_LIMIT, form: true },
  },
  async ({ request, requestId, session, body, form, log }) => {
    const next = safeNextPath(typeof body.next === "string" ? body.next : RING_PAGE);
    try {
      const input = addInput(body);
      if (session.keys.length >= RING_LIMIT) throw new DashboardError(409, "ring_full");
      const { key, context } = await readKey(input, requestId);
      const db = await database();
      const fingerprint = await keyFingerprint(db, key.apiKey);
      const holder = session.keys.find(
        (held) => held.fingerprint === fingerprint || held.stores.some((store) => key.stores.some((added) => added.url === store.url)),
      );
      if (holder) {
        const stores = holder.stores.map((store) => store.url).join(", ");
        throw new DashboardError(409, "store_in_ring", `${stores} is already in your key ring (${holder.label}): nothing was replaced.`);
      }
      if (key.stores.length === 0) throw new DashboardError(403, "key_unscoped");
      const added: SessionKey = { ...key, fingerprint, label: keyLabel(fingerprint) };
      const keys = [...session.keys, added];
      // The cookie is sealed first: a ring too large for it changes nothing.
      await sessionSetCookies(withKeys(session.data, keys), request);
      const storeUrls = key.stores.map((store) => store.url);
      const data = await changed(session, keys, (tx) =>
        addSessionKey(tx, session.id, { keyFingerprint: fingerprint, label: added.label, storeUrls }, new Date()),
      );
      const response = answer(form, next, { added: storeUrls.join(",") }, () =>
        jsonResponse({ session: summarizeSession({ ...session, data, keys }) }, { status: 201, requestId }),
      );
      await withCookies(response, data, request);
      rememberKeyReach(session.id, fingerprint, context);
      // The warm-up of the added key's stores, as after a sign-in.
      warmUp(upstreamClient({ apiKey: key.apiKey, requestId }), storeUrls);
      // Adding a key renews its grants, as signing in with it does (rows of its own stores only).
      await withReach(db, storeUrls, (tx) => renewGrantsOfKey(tx, fingerprint, settings().delegation.ttlDays, new Date()));
      return response;
    } catch (error) {
      const failure =
        error instanceof SessionTooLarge
          ? new DashboardError(409, "ring_full", "These keys no longer fit in the session cookie.")
          : toDashboardError(error);
      if (!failure) throw error;
      log.upstreamRequestId = failure.extra.upstreamRequestId;
      log.code = failure.code;
      // The new key's refusal is the new key's: the session and its other keys stay as they were.
      return refusal(form, next, failure, requestId);
    }
  },
);

/** POST /api/session/keys/remove: the store's key leaves the ring at once; removing the last key signs out. */
export const removeRingKey = route(
  {
    methods: ["POST"],
    path: "/api/session/keys/remove",
    scope: "none",
    reason: "removes a key from the signed-in session's own ring",
    body: { schema: removeKeySchema, maxBytes: SIGN_IN_BODY_LIMIT, form: true },
  },
  async ({ request, requestId, session, body, form }) => {
    const next = safeNextPath(body.next ?? RING_PAGE);
    const key = session.keys.find((held) => held.stores.some((store) => store.url === body.storeUrl));
    if (!key) throw new DashboardError(404, "not_found", `Store ${body.storeUrl} is not in your key ring.`);
    const keys = session.keys.filter((held) => held !== key);
    const data = await changed(session, keys, (tx) => removeSessionKey(tx, session.id, key.fingerprint, new Date()));
    forgetReach(`${session.id}:${key.fingerprint}`);
    if (keys.length === 0) {
      await revokeSession(await database(), session.id, "session_revoked", new Date());
      const response = form
        ? new Response(null, { status: 303, headers: { location: "/sign-in" } })
        : new Response(null, { status: 204, headers: { "x-request-id": requestId } });
      for (const cleared of clearedSessionCookies(request)) response.headers.append("set-cookie", cleared);
      response.headers.append("set-cookie", forgetEndedReasonCookie(request));
      return response;
    }
    const removed = key.stores.map((store) => store.url).join(",");
    const response = answer(form, next, { removed }, () =>
      jsonResponse({ session: summarizeSession({ ...session, data, keys }) }, { requestId }),
    );
    return withCookies(response, data, request);
  },
);
