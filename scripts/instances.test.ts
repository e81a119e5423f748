import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startDemoUpstream, type DemoUpstream } from "@/demo-upstream/server";
import { activityResponseSchema } from "@/shared/schemas/activity";
import { Dashboard, type ErrorBody } from "@/test/dashboard-instances";
import { newLocation } from "@/test/databases";
import { ADMIN_KEY, US_STORE } from "@/test/harness";
import { ensureBuild } from "@/test/processes";
import { startTcpProxy, type TcpProxy } from "@/test/tcp-proxy";

/**
 * Durable state across real dashboard processes: two instances of the production server on one
 * PostgreSQL database (reached through a TCP relay the tests can hold or cut), and restarts.
 */
const MANAGER_KEY = "sk_demo_manager_nw_us_7c2e5a90f3b1";
// Well-formed, unknown to the upstream: a failed sign-in.
const WRONG_KEY = "sk_demo_admin_nw_us_000000000000";
// The EU store is read by no other test here: its rollups are filled by this file's warm-ups alone.
const EU_KEY = "sk_demo_admin_nw_eu_2a7f94c1e8b3";
const EU_STORE = "northwind-eu.myshopify.com";
const postgresUrl = process.env.TEST_DATABASE_URL;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`${what} not within ${timeoutMs} ms`);
    await sleep(100);
  }
}

describe.skipIf(!postgresUrl)("two dashboard instances on one PostgreSQL database", () => {
  let upstream: DemoUpstream;
  let relay: TcpProxy;
  let dropDatabase: (() => Promise<void>) | undefined;
  let directUrl: string;
  let a: Dashboard | undefined;
  let b: Dashboard | undefined;
  const instances = () => [a!, b!];
  const clones = () => upstream.requestCounts().clone;

  beforeAll(async () => {
    ensureBuild();
    upstream = await startDemoUpstream({ port: 0, control: true });
    const location = await newLocation("postgres");
    dropDatabase = location.drop;
    directUrl = location.url!;
    const direct = new URL(directUrl);
    relay = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const relayed = new URL(direct);
    relayed.hostname = "127.0.0.1";
    relayed.port = String(relay.port);
    const env = {
      UPSTREAM_BASE_URL: upstream.baseUrl,
      SESSION_SECRET: "instances-test-secret-".padEnd(48, "x"),
      DATABASE_URL: relayed.toString(),
      // Short, so that a lost attempt's lock (UPSTREAM_TIMEOUT_MS + 15 s) goes stale within the test; longer than the 1.5 s latency below.
      UPSTREAM_TIMEOUT_MS: "2500",
      TRUST_PROXY_HOPS: "1",
      DATABASE_STATEMENT_TIMEOUT_MS: "2000",
      DATABASE_CONNECT_TIMEOUT_MS: "2000",
    };
    // Started together on a new database: both apply the migrations, taking turns.
    a = await Dashboard.create(env);
    b = await Dashboard.create(env);
    await Promise.all([a.start(), b.start()]);
  }, 600_000);

  afterAll(async () => {
    const steps = [() => a?.kill(), () => b?.kill(), () => relay?.close(), () => upstream?.close(), () => dropDatabase?.()];
    const failures: unknown[] = [];
    for (const step of steps)
      await Promise.resolve()
        .then(step)
        .catch((error: unknown) => failures.push(error));
    if (failures.length > 0) throw failures[0];
  }, 60_000);

  beforeEach(() => upstream.reset());
  // A test that failed half-way leaves the next one a working pair.
  afterEach(async () => {
    relay.resume();
    await relay.restore();
    for (const dashboard of instances()) if (!dashboard.running) await dashboard.start();
  }, 60_000);

  it("both report themselves healthy", async () => {
    for (const dashboard of instances()) {
      const response = await dashboard.request("/api/health");
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ status: "ok", database: "ok", databaseKind: "postgresql" });
    }
  });

  it("50 concurrent identical clones split across both instances: one upstream clone, one answer for all", async () => {
    const cookie = await a!.cookieFor(ADMIN_KEY);
    const key = randomUUID();
    const responses = await Promise.all(Array.from({ length: 50 }, (_, index) => instances()[index % 2]!.clone(cookie, key)));
    const bodies = await Promise.all(responses.map((response) => response.text()));
    expect(responses.map((response) => response.status)).toEqual(Array(50).fill(200));
    expect(new Set(bodies).size).toBe(1);
    expect(JSON.parse(bodies[0]!)).toBeTypeOf("object");
    expect(responses.filter((response) => response.headers.get("idempotent-replayed") !== "true")).toHaveLength(1);
    expect(new Set(responses.map((response) => response.headers.get("x-audit-id"))).size).toBe(1);
    expect(clones()).toBe(1);
  }, 60_000);

  it("one key signed in on both instances: each month of the warm-up is one job, filled once, its rows read from the upstream once", async () => {
    const direct = new pg.Client({ connectionString: directUrl });
    await direct.connect();
    try {
      await Promise.all([a!.cookieFor(EU_KEY, "198.51.100.31"), b!.cookieFor(EU_KEY, "198.51.100.32")]);
      type Fill = { state: string; detail: string | null };
      const fills = await until(
        async () => {
          const { rows } = await direct.query<Fill>(
            `select state, detail from jobs where name = 'rollups.fill' and payload ->> 'storeUrl' = $1`,
            [EU_STORE],
          );
          return rows.length === 13 && rows.every((row) => row.state === "done" || row.state === "dead") ? rows : undefined;
        },
        240_000,
        "the warm-up's 13 fills",
      );
      expect(fills.map((fill) => fill.state)).toEqual(Array(13).fill("done"));
      const stored = fills.map((fill) => Number(/^(\d+) days of/.exec(fill.detail ?? "")?.[1]));
      // One upstream read per month that had closed days to store, whichever instance ran it.
      expect(upstream.keyUses().filter((use) => use.route === "products" && use.storeUrl === EU_STORE)).toHaveLength(
        stored.filter((days) => days > 0).length,
      );
      const { rows } = await direct.query<{ days: number }>(
        `select count(*)::int as days from rollup_days where store_url = $1 and filter_key = ''`,
        [EU_STORE],
      );
      expect(rows[0]!.days).toBe(stored.reduce((sum, days) => sum + days, 0));
    } finally {
      await direct.end();
    }
  }, 300_000);

  it("signing out on one instance ends the session on both", async () => {
    const cookie = await a!.cookieFor(ADMIN_KEY);
    expect((await b!.request("/api/session", { cookie })).status).toBe(200);
    expect((await a!.request("/api/session", { method: "DELETE", cookie })).status).toBe(204);
    expect((await b!.request("/api/session", { cookie })).status).toBe(401);
    expect((await a!.request("/api/session", { cookie })).status).toBe(401);
    expect((await b!.clone(cookie)).status).toBe(401);
    expect(clones()).toBe(0);
  });

  it("10 failed sign-ins from one client, alternating instances: the next one is refused on either", async () => {
    const client = "203.0.113.9";
    for (let attempt = 0; attempt < 10; attempt++) {
      const response = await instances()[attempt % 2]!.signIn(WRONG_KEY, client);
      expect(response.status).toBe(401);
    }
    for (const dashboard of instances()) {
      const refused = await dashboard.signIn(ADMIN_KEY, client);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(((await refused.json()) as ErrorBody).code).toBe("rate_limited");
    }
    expect((await b!.signIn(ADMIN_KEY, "203.0.113.10")).status).toBe(200);
  });

  it("after a journey, no table of the database holds an API key", async () => {
    const cookie = await a!.cookieFor(ADMIN_KEY, "198.51.100.20");
    await b!.cookieFor(MANAGER_KEY, "198.51.100.21");
    expect((await b!.signIn(WRONG_KEY, "198.51.100.22")).status).toBe(401);
    const pixels = (await (await b!.request(`/api/v1/pixels/${US_STORE}`, { cookie })).json()) as { pixels: { id: string }[] };
    const removed = await a!.request(`/api/v1/pixels/${US_STORE}/${pixels.pixels[0]!.id}`, {
      method: "DELETE",
      cookie,
      idempotencyKey: randomUUID(),
    });
    expect(removed.status).toBeLessThan(300);
    const cloned = await b!.clone(cookie);
    expect(cloned.status).toBe(200);
    const view = await a!.request(`/api/stores/${US_STORE}/saved-views`, {
      method: "POST",
      cookie,
      body: JSON.stringify({ name: "All products", search: "" }),
    });
    expect(view.status).toBe(201);
    const activity = activityResponseSchema.parse(await (await b!.request("/api/activity", { cookie })).json());
    const journey = [removed, cloned].map((response) => response.headers.get("x-audit-id"));
    expect(activity.entries.filter((entry) => journey.includes(entry.id)).map((entry) => entry.action)).toEqual([
      "campaign-group.clone",
      "tracking-connection.remove",
    ]);

    const client = new pg.Client({ connectionString: directUrl });
    await client.connect();
    let dump = "";
    try {
      const tables = await client.query<{ name: string }>(
        "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1",
      );
      for (const { name } of tables.rows) {
        const { rows } = await client.query<{ rows: string }>(`select coalesce(json_agg(t), '[]')::text as rows from "${name}" t`);
        dump += `${name}: ${rows[0]!.rows}\n`;
      }
    } finally {
      await client.end();
    }
    // The journey left rows behind: sessions, idempotency records, audit entries, the saved view, the failed sign-in.
    for (const table of ["sessions", "idempotency_records", "audit_entries", "saved_views", "sign_in_failures"])
      expect(dump).toMatch(new RegExp(`^${table}: \\[\\{`, "m"));
    for (const secret of [ADMIN_KEY, MANAGER_KEY, WRONG_KEY, "sk_demo"]) {
      expect(dump).not.toContain(secret);
      // Nor in a bytea column, which JSON shows in hex.
      expect(dump).not.toContain(Buffer.from(secret).toString("hex"));
    }
  }, 30_000);

  it("while the database is away, requests answer 503 database_unavailable and nothing reaches the upstream; then they recover", async () => {
    const cookie = await a!.cookieFor(ADMIN_KEY);
    const before = upstream.requestCounts();
    await relay.cut();
    for (const dashboard of instances()) {
      const answers = {
        session: await dashboard.request("/api/session", { cookie }),
        pixels: await dashboard.request(`/api/v1/pixels/${US_STORE}`, { cookie }),
        clone: await dashboard.clone(cookie),
        signIn: await dashboard.signIn(ADMIN_KEY),
      };
      for (const [name, response] of Object.entries(answers)) {
        expect(response.status, name).toBe(503);
        const body = (await response.json()) as ErrorBody;
        expect(body.code).toBe("database_unavailable");
        expect(body.requestId).toMatch(/\S/);
        expect(response.headers.get("x-request-id")).toBe(body.requestId);
      }
      // A page cannot answer 503 itself: it sends the browser to a page that says what happened.
      const page = await fetch(`${dashboard.origin}/activity`, { headers: { cookie }, redirect: "manual" });
      expect(page.status).toBe(307);
      expect(page.headers.get("location")).toMatch(/\/unavailable\?next=%2Factivity$/);
      const health = await dashboard.request("/api/health");
      expect(health.status).toBe(503);
      expect(await health.json()).toMatchObject({ status: "unavailable", database: "unavailable", databaseKind: "postgresql" });
    }
    expect(upstream.requestCounts()).toEqual(before);

    await relay.restore();
    for (const dashboard of instances()) {
      await until(async () => ((await dashboard.request("/api/health")).status === 200 ? true : undefined), 15_000, "healthy again");
      expect((await dashboard.request("/api/session", { cookie })).status).toBe(200);
      expect((await dashboard.clone(cookie)).status).toBe(200);
    }
    expect(clones()).toBe(2);
  }, 60_000);

  it("a silent partition (the database reachable, passing no bytes) answers 503 within seconds, health within its own timeout", async () => {
    const cookie = await a!.cookieFor(ADMIN_KEY);
    relay.hold();
    try {
      for (const dashboard of instances()) {
        const started = performance.now();
        const health = await dashboard.request("/api/health");
        expect(health.status).toBe(503);
        expect(performance.now() - started).toBeLessThan(4_000);
        const asked = performance.now();
        const activity = await dashboard.request("/api/activity", { cookie });
        expect(activity.status).toBe(503);
        expect(((await activity.json()) as ErrorBody).code).toBe("database_unavailable");
        // The statement and connect timeouts are 2 s here (DATABASE_*_TIMEOUT_MS): an answer within a few seconds, not a hang.
        expect(performance.now() - asked).toBeLessThan(8_000);
      }
    } finally {
      relay.resume();
    }
    for (const dashboard of instances()) {
      await until(async () => ((await dashboard.request("/api/health")).status === 200 ? true : undefined), 20_000, "healthy again");
      expect((await dashboard.request("/api/activity", { cookie })).status).toBe(200);
    }
  }, 90_000);

  it("after a graceful restart, the Activity list is kept and a completed clone retried with its key is replayed", async () => {
    const cookie = await a!.cookieFor(ADMIN_KEY);
    const key = randomUUID();
    const first = await a!.clone(cookie, key);
    expect(first.status).toBe(200);
    const auditId = first.headers.get("x-audit-id");
    const body = await first.text();

    expect(await a!.stop()).toBe(0);
    await a!.start();
    const activity = activityResponseSchema.parse(await (await a!.request("/api/activity", { cookie })).json());
    expect(activity.entries.map((entry) => entry.id)).toContain(auditId);
    const retried = await a!.clone(cookie, key);
    expect(retried.status).toBe(200);
    expect(retried.headers.get("idempotent-replayed")).toBe("true");
    expect(await retried.text()).toBe(body);
    expect(clones()).toBe(1);
  }, 60_000);

  it("on SIGTERM, a clone in flight still completes and the process exits 0; health says draining meanwhile", async () => {
    const cookie = await b!.cookieFor(ADMIN_KEY);
    upstream.setFaults([{ route: "clone", latencyMs: 1_500 }]);
    const inFlight = b!.clone(cookie);
    await until(async () => (clones() >= 1 ? true : undefined), 10_000, "the clone at the upstream");
    // The health check waits on its database round trip while the stop begins.
    relay.hold();
    const health = b!.request("/api/health");
    await until(async () => (relay.heldChunks() > 0 ? true : undefined), 10_000, "the health check at the database");
    const exited = b!.stop();
    await b!.script!.waitFor(/SIGTERM: finishing the requests in flight/);
    relay.resume();

    const drained = await health;
    expect(drained.status).toBe(503);
    expect(await drained.json()).toMatchObject({ status: "draining", database: "ok" });
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(response.headers.get("idempotent-replayed")).toBeNull();
    expect(await exited).toBe(0);
    expect(clones()).toBe(1);
  }, 60_000);

  it("kill -9 during a clone, restart, retry with its key: 409 outcome_unknown, and the upstream cloned at most once", async () => {
    const cookie = await a!.cookieFor(ADMIN_KEY);
    const key = randomUUID();
    upstream.setFaults([{ route: "clone", latencyMs: 3_000 }]);
    const lost = a!.clone(cookie, key).catch((error: unknown) => error);
    await until(async () => (clones() >= 1 ? true : undefined), 10_000, "the clone at the upstream");
    await a!.kill();
    expect(await lost).toBeInstanceOf(Error);
    upstream.setFaults([]);
    await a!.start();

    const seen = new Set<string>();
    // Until the lost attempt's lock goes stale (UPSTREAM_TIMEOUT_MS + 15 s after it began), a retry is told it is in progress.
    const body = await until(
      async () => {
        const retry = await a!.clone(cookie, key);
        const answer = (await retry.json()) as ErrorBody;
        seen.add(`${retry.status} ${answer.code}`);
        return answer.code === "outcome_unknown" ? answer : undefined;
      },
      40_000,
      "409 outcome_unknown",
    );
    expect(body.requestId).toMatch(/\S/);
    expect([...seen].filter((answer) => answer !== "409 idempotency_in_progress")).toEqual(["409 outcome_unknown"]);
    const again = await b!.clone(cookie, key);
    expect(again.status).toBe(409);
    expect(((await again.json()) as ErrorBody).code).toBe("outcome_unknown");
    expect(clones()).toBe(1);
    // The Activity list says so too.
    const activity = activityResponseSchema.parse(await (await b!.request("/api/activity", { cookie })).json());
    expect(activity.entries.find((entry) => entry.id === body.details?.auditId)).toMatchObject({ outcome: "unknown", status: null });
  }, 90_000);
});
