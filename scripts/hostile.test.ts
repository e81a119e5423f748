import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeDemo } from "@/demo-upstream/describe";
import type { DemoUpstream } from "@/demo-upstream/server";
import { openDatabase } from "@/server/db/database";
import { Dashboard, startEmbeddedDashboard, type EmbeddedDashboard, type ErrorBody } from "@/test/dashboard-instances";
import { dumpAllTables } from "@/test/databases";
import { ADMIN_KEY, startRecordingUpstream, US_STORE } from "@/test/harness";
import { copyOfTemplate } from "@/test/pglite-template";
import { ensureBuild } from "@/test/processes";

/**
 * Hostile input over real HTTP, against a production dashboard process: tampered cookies, NUL
 * bytes and dates PostgreSQL cannot store, lookalike saved-view names, a key revoked upstream
 * reading local data, a short idle limit, a cut upload, and an upstream that quotes the key.
 */
const SECRET = "hostile-test-secret-".padEnd(48, "x");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("hostile input against a production dashboard", () => {
  let embedded: EmbeddedDashboard | undefined;
  let upstream: DemoUpstream;
  let dashboard: Dashboard;
  let client = 0;
  const cookie = () => dashboard.cookieFor(ADMIN_KEY, `203.0.113.${++client}`);

  beforeAll(async () => {
    embedded = await startEmbeddedDashboard({
      SESSION_SECRET: SECRET,
      TRUST_PROXY_HOPS: "1",
      KEY_RECHECK_SECONDS: "2",
      SESSION_IDLE_SECONDS: "4",
    });
    ({ upstream, dashboard } = embedded);
  }, 600_000);

  afterAll(() => embedded?.close());

  it("refuses a sealed cookie with bytes appended, or written twice, as any tampered cookie", async () => {
    const signedIn = await cookie();
    const [name, value] = signedIn.split("=") as [string, string];
    expect((await dashboard.request("/api/session", { cookie: signedIn })).status).toBe(200);
    for (const tampered of [`${value}x`, `${value}${value}`, `${value}~2`, `${value}*`]) {
      const response = await dashboard.request("/api/session", { cookie: `${name}=${tampered}` });
      expect(response.status, tampered.slice(-12)).toBe(401);
    }
  });

  it("answers 400 naming the parameter for NUL bytes and for dates and cursors PostgreSQL cannot store", async () => {
    const session = await cookie();
    const cursor = (at: string) => Buffer.from(JSON.stringify([at, "act_x"])).toString("base64url");
    const cases = [
      ["/api/activity?from=0000-01-01", /from: must be between 1970-01-01 and 2100-12-31/],
      ["/api/activity?to=9999-12-31", /to: must be between/],
      [`/api/activity?before=${cursor("+275760-09-13T00:00:00.000Z")}`, /page of the Activity list does not exist/],
      ["/api/activity?store=a%00b", /"store" contains a NUL/],
      ["/api/activity?person=%00", /"person" contains a NUL/],
      [`/api/stores/${US_STORE}/saved-views/view_%00`, /path parameter id contains a NUL|No such saved view/],
      ["/api/stores/a%00b/saved-views", /path parameter storeUrl contains a NUL/],
    ] as const;
    for (const [path, message] of cases) {
      const response = await dashboard.request(path, { cookie: session, method: path.includes("view_") ? "DELETE" : "GET" });
      const body = (await response.json()) as ErrorBody & { error: string };
      expect([400, 404], path).toContain(response.status);
      expect(body.error, path).toMatch(message);
    }
  });

  it("refuses saved-view names with controls, invisible text or direction overrides, and treats lookalikes as one name", async () => {
    const session = await cookie();
    const save = (name: string) =>
      dashboard.request(`/api/stores/${US_STORE}/saved-views`, {
        method: "POST",
        cookie: session,
        body: JSON.stringify({ name, search: "" }),
      });
    for (const [name, message] of [
      ["Weekly\u0085", /control characters/],
      ["\u200b\u200b", /visible character/],
      ["\u202eweiv", /direction overrides/],
    ] as const) {
      const response = await save(name);
      expect(response.status, JSON.stringify(name)).toBe(400);
      expect(((await response.json()) as { error: string }).error).toMatch(message);
    }
    const suffix = randomUUID().slice(0, 6);
    expect((await save(`Straße ${suffix}`)).status).toBe(201);
    expect((await save(`STRASSE ${suffix}`)).status).toBe(409);
    expect((await save(`Caf\u00e9 ${suffix}`)).status).toBe(201);
    const decomposed = await save(`Cafe\u0301 ${suffix}`);
    expect(decomposed.status).toBe(409);
    expect((await save(`  Caf\u00e9 ${suffix}  `)).status).toBe(409);
  });

  it("stops a key revoked upstream from reading Activity, saved views and Sessions within KEY_RECHECK_SECONDS", async () => {
    const key = describeDemo().keys.find((candidate) => candidate.label.startsWith("Manager"))!.key;
    const session = await dashboard.cookieFor(key, `203.0.113.${++client}`);
    const local = ["/api/activity", `/api/stores/${US_STORE}/saved-views`, "/api/sessions"];
    for (const path of local) expect((await dashboard.request(path, { cookie: session })).status, path).toBe(200);
    await fetch(`${upstream.origin}/__control/revoke`, { method: "POST", body: JSON.stringify({ key }) });
    await sleep(2_500);
    for (const path of local) {
      const response = await dashboard.request(path, { cookie: session });
      expect(response.status, path).toBe(401);
      expect(((await response.json()) as ErrorBody).code, path).toMatch(/^(key_revoked|session_revoked)$/);
    }
  });

  it("keeps a session in use under an idle limit shorter than a minute (SESSION_IDLE_SECONDS=4)", async () => {
    const session = await cookie();
    for (let step = 0; step < 6; step++) {
      await sleep(1_500);
      expect((await dashboard.request("/api/session", { cookie: session })).status, `after ${(step + 1) * 1.5} s`).toBe(200);
    }
    await sleep(5_000);
    expect(((await (await dashboard.request("/api/session", { cookie: session })).json()) as ErrorBody).code).toBe("session_idle");
  });

  it("writes one log line, without a stack, for an upload cut off mid-body", async () => {
    const session = await cookie();
    const before = dashboard.script!.output().length;
    await new Promise<void>((resolve) => {
      const socket = connect(dashboard.port, "127.0.0.1", () => {
        socket.write(
          `POST /api/stores/${US_STORE}/saved-views HTTP/1.1\r\nhost: localhost:${dashboard.port}\r\norigin: ${dashboard.origin}\r\n` +
            `cookie: ${session}\r\ncontent-type: application/json\r\ncontent-length: 5000\r\n\r\n{"name":"cut`,
        );
        setTimeout(() => socket.destroy(), 300);
      });
      socket.on("close", () => resolve());
    });
    await sleep(500);
    const output = dashboard.script!.output().slice(before);
    const lines = output
      .trim()
      .split("\n")
      .filter((line) => line.includes("saved-views"));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ msg: "request", route: "POST /api/stores/{storeUrl}/saved-views" });
    expect(output).not.toMatch(/^\s+at /m);
  });
});

describe("an upstream that quotes the key in its errors", () => {
  it("never puts the key in a dashboard answer or the database", async () => {
    ensureBuild();
    const key = "sk_live_quoted_4f1e9c2b7a6d";
    const context = {
      user: { id: "u1", email: "ada@example.com", emailVerified: true, name: "Ada", image: null },
      organizations: [
        {
          id: "org_1",
          name: "Org",
          slug: "org",
          createdAt: "2026-01-01",
          role: "admin",
          stores: [{ id: "s1", url: "shop.example", type: "shopify", currency: "USD", createdAt: "2026-01-01", updatedAt: "2026-01-01" }],
        },
      ],
    };
    const hostile = await startRecordingUpstream((request) => {
      if (request.url.startsWith("/v1/context")) return { status: 200, body: JSON.stringify(context) };
      const status = request.url.includes("clone") ? 403 : request.url.includes("store-data") ? 500 : 404;
      return {
        status,
        body: JSON.stringify({ error: `key ${key} (also sk_live_other_9a8b7c6d5e4f) cannot do this`, details: { sent: key } }),
      };
    });
    const dataDir = copyOfTemplate();
    const dashboard = await Dashboard.create({
      UPSTREAM_BASE_URL: hostile.baseUrl,
      SESSION_SECRET: SECRET,
      EMBEDDED_DATABASE: "1",
      DATA_DIR: dataDir,
      TRUST_PROXY_HOPS: "1",
    });
    try {
      await dashboard.start();
      const session = await dashboard.cookieFor(key);
      const answers = [
        await dashboard.request("/api/v1/store-data/shop.example", { cookie: session }),
        await dashboard.request("/api/v1/pixels/shop.example", { cookie: session }),
        await dashboard.request("/api/stores/shop.example/product-metrics?startDate=2026-01-01&endDate=2026-01-02", { cookie: session }),
        await dashboard.request("/api/stores/shop.example/product-metrics/export?startDate=2026-01-01&endDate=2026-01-02&kind=rows", {
          cookie: session,
        }),
        await dashboard.request("/api/v1/platform/shop.example/actions/clone-linkedin-campaign", {
          method: "POST",
          cookie: session,
          idempotencyKey: randomUUID(),
          body: JSON.stringify({ adAccountId: "a1", payload: { sourceCampaignGroupId: "g1", name: "n" } }),
        }),
        await dashboard.request("/api/session", { cookie: session }),
      ];
      for (const answer of answers) {
        const text = await answer.text();
        expect(answer.status).toBeGreaterThanOrEqual(200);
        expect(text).not.toContain(key);
        expect(text).not.toContain("sk_live_other_9a8b7c6d5e4f");
      }
      expect(await dashboard.stop()).toBe(0);
      expect(dashboard.script!.output()).not.toContain(key);
      const db = await openDatabase({ dataDir });
      try {
        const dump = await dumpAllTables(db);
        expect(dump).toContain("[redacted]");
        expect(dump).not.toContain(key);
      } finally {
        await db.close();
      }
    } finally {
      await dashboard.kill();
      await hostile.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
