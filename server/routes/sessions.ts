import "server-only";
import { createHash } from "node:crypto";
import type { SessionListItem } from "@/shared/schemas/sessions";
import { DashboardError, jsonResponse } from "@/server/http/responses";
import { settings } from "@/server/config/settings";
import { database } from "@/server/db/database";
import { listSessionsHolding, revokeOthers, revokeSession, sessionState } from "@/server/auth/sessions";
import { route } from "@/server/http/pipeline";
import type { ActiveSession } from "@/server/auth/require-session";

/** The handle the browser sees for a session: derived from its id, which stays on the server. */
const publicId = (id: string) => createHash("sha256").update(id).digest("base64url").slice(0, 22);

const OWN_SESSIONS = "the signed-in person's own sessions (browser, address, times): nothing of any store";

/** The keys the session still holds: it lists and ends only the sessions of these. */
const heldKeys = (session: ActiveSession) => session.keys.map((key) => key.fingerprint);

/** The sessions holding a key this session holds that are the signed-in person's. */
async function ownSessions(session: ActiveSession) {
  const rows = await listSessionsHolding(await database(), heldKeys(session));
  const email = session.data.user.email.toLowerCase();
  return rows.filter((row) => row.userEmail.toLowerCase() === email);
}

/** GET /api/sessions: the sessions of the keys this session holds that still count, this one marked. */
export const listSessions = route(
  { methods: ["GET"], path: "/api/sessions", scope: "none", reason: OWN_SESSIONS },
  async ({ session, requestId }) => {
    const now = new Date();
    const limits = settings().session;
    const rows = await ownSessions(session);
    const sessions: SessionListItem[] = rows
      .filter((row) => sessionState(row, now, limits) === "active")
      .map((row) => ({
        id: publicId(row.id),
        userAgent: row.userAgent,
        clientAddress: row.clientAddress,
        userEmail: row.userEmail,
        createdAt: row.createdAt.toISOString(),
        lastSeenAt: row.lastSeenAt.toISOString(),
        current: row.id === session.id,
      }));
    return jsonResponse({ sessions }, { requestId });
  },
);

/** DELETE /api/sessions/{id}: signs out one session holding a key this one holds. */
export const endSession = route(
  {
    methods: ["DELETE"],
    path: "/api/sessions/[id]",
    scope: "none",
    reason: OWN_SESSIONS,
    params: ({ id }) => {
      if (typeof id !== "string" || !/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw new DashboardError(404, "not_found", "No such session.");
      return { id };
    },
  },
  async ({ session, params, requestId }) => {
    const db = await database();
    const target = (await ownSessions(session)).find((row) => publicId(row.id) === params.id);
    if (!target) throw new DashboardError(404, "not_found", "No such session: it may have ended already.");
    const ended = (await revokeSession(db, target.id, "session_revoked", new Date())) ? 1 : 0;
    return jsonResponse({ ended }, { requestId });
  },
);

/** DELETE /api/sessions: signs out every other session holding a key this one holds. */
export const endOtherSessions = route(
  { methods: ["DELETE"], path: "/api/sessions", scope: "none", reason: OWN_SESSIONS },
  async ({ session, requestId }) =>
    jsonResponse({ ended: await revokeOthers(await database(), heldKeys(session), session.id, new Date()) }, { requestId }),
);
