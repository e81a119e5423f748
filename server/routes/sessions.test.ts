import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DELETE as endSessionRoute } from "@/app/api/sessions/[id]/route";
import { GET as sessionsRoute } from "@/app/api/sessions/route";
import { startDemoUpstream, type DemoUpstream } from "@/demo-upstream/server";
import { database } from "@/server/db/database";
import { createSession } from "@/server/auth/sessions";
import type { SessionListItem } from "@/shared/schemas/sessions";
import { ADMIN_KEY, cookieFrom, dashboardRequest, useUpstream } from "@/test/harness";
import { signIn } from "./sign-in";

/** The Sessions page: the signed-in person's own sessions, nothing of anyone else's and nothing of any store. */
let upstream: DemoUpstream;
let cookie: string;

beforeAll(async () => {
  upstream = await startDemoUpstream({ port: 0 });
  useUpstream(upstream.baseUrl);
  cookie = cookieFrom(await signIn(dashboardRequest("/api/session", { method: "POST", body: JSON.stringify({ apiKey: ADMIN_KEY }) })));
});
afterAll(() => upstream.close());

async function listed(): Promise<SessionListItem[]> {
  const response = await sessionsRoute(dashboardRequest("/api/sessions", { cookie }));
  expect(response.status).toBe(200);
  return ((await response.json()) as { sessions: SessionListItem[] }).sessions;
}

describe("GET /api/sessions", () => {
  it("lists the signed-in person's sessions only, even when another person's session has the same key", async () => {
    const [mine] = await listed();
    const db = await database();
    const [row] = await db.query<{ fingerprint: string }>("select key_fingerprint as fingerprint from sessions limit 1");
    await createSession(
      db,
      {
        keyFingerprint: row!.fingerprint,
        userEmail: "someone.else@example.com",
        userName: "Someone Else",
        organizationId: "org_northwind",
        organizationName: "Northwind",
        userAgent: "Another browser",
        clientAddress: "203.0.113.9",
      },
      new Date(),
    );
    const sessions = await listed();
    expect(sessions.map((session) => session.userEmail)).toEqual([mine!.userEmail]);
    expect(JSON.stringify(sessions)).not.toContain("Another browser");
    expect(Object.keys(sessions[0]!).sort()).toEqual([
      "clientAddress",
      "createdAt",
      "current",
      "id",
      "lastSeenAt",
      "userAgent",
      "userEmail",
    ]);
  });

  it("cannot end another person's session", async () => {
    const db = await database();
    const [other] = await db.query<{ id: string }>("select id from sessions where user_email = 'someone.else@example.com'");
    const publicId = createHash("sha256").update(other!.id).digest("base64url").slice(0, 22);
    const response = await endSessionRoute(dashboardRequest(`/api/sessions/${publicId}`, { method: "DELETE", cookie }), {
      params: { id: publicId },
    });
    expect(response.status).toBe(404);
  });
});
