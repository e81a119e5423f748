import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDemoUpstream, type DemoUpstream } from "@/demo-upstream/server";
import { Dashboard, type ErrorBody } from "@/test/dashboard-instances";
import { ADMIN_KEY } from "@/test/harness";
import { copyOfTemplate } from "@/test/pglite-template";
import { ensureBuild } from "@/test/processes";

/**
 * A key's identity (what groups its sessions, idempotency records and refusals) does not
 * depend on the session secret: after SESSION_SECRET=new,old, a pre-rotation session is ended
 * by "Sign out all other devices", an unknown clone is never sent again, and an upstream 401
 * ends every session of the key.
 */
const OLD = "old-session-secret-".padEnd(48, "o");
const NEW = "new-session-secret-".padEnd(48, "n");

describe("a SESSION_SECRET rotation", () => {
  let upstream: DemoUpstream;
  let dashboard: Dashboard;
  let dataDir: string;
  const env = (secret: string) => ({
    UPSTREAM_BASE_URL: upstream.baseUrl,
    SESSION_SECRET: secret,
    EMBEDDED_DATABASE: "1",
    DATA_DIR: dataDir,
    TRUST_PROXY_HOPS: "1",
    UPSTREAM_TIMEOUT_MS: "2000",
  });

  beforeAll(async () => {
    ensureBuild();
    upstream = await startDemoUpstream({ port: 0, control: true });
    dataDir = copyOfTemplate();
  }, 600_000);

  afterAll(async () => {
    await dashboard?.kill();
    await upstream?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("keeps one identity per key across it", async () => {
    dashboard = await Dashboard.create(env(OLD));
    await dashboard.start();
    const before = await dashboard.cookieFor(ADMIN_KEY, "192.0.2.1");
    // A clone whose answer is lost: its outcome is unknown.
    const key = randomUUID();
    upstream.setFaults([{ route: "clone", truncateRate: 1, times: 1 }]);
    expect((await dashboard.clone(before, key)).status).toBe(502);
    upstream.setFaults([]);
    expect(upstream.requestCounts().clone).toBe(1);
    expect(await dashboard.stop()).toBe(0);

    // The same instance, restarted with a new secret in front of the old one.
    const rotated = await Dashboard.create(env(`${NEW},${OLD}`));
    dashboard = rotated;
    await rotated.start();
    expect((await rotated.request("/api/session", { cookie: before })).status).toBe(200);
    const after = await rotated.cookieFor(ADMIN_KEY, "192.0.2.2");

    // The unknown clone, retried with its key from the new session, is not sent again.
    const retry = await rotated.clone(after, key);
    expect(retry.status).toBe(409);
    expect(((await retry.json()) as ErrorBody).code).toBe("outcome_unknown");
    expect(upstream.requestCounts().clone).toBe(1);

    // "Sign out all other devices" reaches the session signed in before the rotation.
    const listed = (await (await rotated.request("/api/sessions", { cookie: after })).json()) as { sessions: unknown[] };
    expect(listed.sessions).toHaveLength(2);
    const ended = (await (await rotated.request("/api/sessions", { method: "DELETE", cookie: after })).json()) as { ended: number };
    expect(ended.ended).toBe(1);
    expect((await rotated.request("/api/session", { cookie: before })).status).toBe(401);

    // An upstream 401 seen by one session ends every session of the key.
    const third = await rotated.cookieFor(ADMIN_KEY, "192.0.2.3");
    await fetch(`${upstream.origin}/__control/revoke`, { method: "POST", body: JSON.stringify({ key: ADMIN_KEY }) });
    expect((await rotated.request("/api/v1/pixels/northwind-outfitters.myshopify.com", { cookie: third })).status).toBe(401);
    for (const cookie of [after, third]) {
      const response = await rotated.request("/api/session", { cookie });
      expect(response.status).toBe(401);
      expect(((await response.json()) as ErrorBody).code).toBe("key_revoked");
    }
  }, 120_000);
});
