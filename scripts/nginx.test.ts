import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDemoUpstream, type DemoUpstream } from "@/demo-upstream/server";
import { Dashboard } from "@/test/dashboard-instances";
import { newLocation } from "@/test/databases";
import { ADMIN_KEY, US_STORE } from "@/test/harness";
import { ensureBuild, freePort, ROOT } from "@/test/processes";
import { startTcpProxy, type TcpProxy } from "@/test/tcp-proxy";

/**
 * The reverse-proxy setup docs/operations.md gives (deploy/nginx.conf, this very file with its ports and
 * paths rewritten) run with Debian's nginx in front of two production instances on one
 * PostgreSQL database, reached through a relay the test can cut.
 */
const NGINX = "/usr/sbin/nginx";
const postgresUrl = process.env.TEST_DATABASE_URL;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** deploy/nginx.conf with this test's ports and a prefix of its own. */
function nginxConfig(listenPort: number, instancePorts: number[]): string {
  const config = readFileSync(join(ROOT, "deploy", "nginx.conf"), "utf8");
  const rewritten = config
    .replace("listen 8080;", `listen 127.0.0.1:${listenPort};`)
    .replace("server 127.0.0.1:3001 ", `server 127.0.0.1:${instancePorts[0]} `)
    .replace("server 127.0.0.1:3002 ", `server 127.0.0.1:${instancePorts[1]} `)
    .replace("worker_processes auto;", "worker_processes 1;");
  expect(rewritten).not.toMatch(/:300[12] |listen 8080/);
  return rewritten;
}

describe.skipIf(!postgresUrl || !existsSync(NGINX))("behind nginx (deploy/nginx.conf): two instances, one PostgreSQL", () => {
  let upstream: DemoUpstream;
  let relay: TcpProxy;
  let dropDatabase: (() => Promise<void>) | undefined;
  let nginx: ChildProcess | undefined;
  let prefix: string;
  let origin: string;
  const instances: Dashboard[] = [];

  const get = (path: string, cookie?: string) => fetch(`${origin}${path}`, { headers: cookie ? { cookie } : {} });
  const signIn = (from: string) =>
    fetch(`${origin}/api/session`, {
      method: "POST",
      headers: { origin: from, "content-type": "application/json" },
      body: JSON.stringify({ apiKey: ADMIN_KEY }),
    });
  const errorLog = () => readFileSync(join(prefix, "logs", "error.log"), "utf8");

  beforeAll(async () => {
    ensureBuild();
    upstream = await startDemoUpstream({ port: 0 });
    const location = await newLocation("postgres");
    dropDatabase = location.drop;
    const direct = new URL(location.url!);
    relay = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    direct.hostname = "127.0.0.1";
    direct.port = String(relay.port);
    const env = {
      UPSTREAM_BASE_URL: upstream.baseUrl,
      SESSION_SECRET: "nginx-test-secret-".padEnd(48, "x"),
      DATABASE_URL: direct.toString(),
      TRUST_PROXY_HOPS: "1",
      UPSTREAM_TIMEOUT_MS: "4000",
      DATABASE_STATEMENT_TIMEOUT_MS: "2000",
      DATABASE_CONNECT_TIMEOUT_MS: "2000",
    };
    instances.push(await Dashboard.create(env), await Dashboard.create(env));
    await Promise.all(instances.map((instance) => instance.start()));

    prefix = mkdtempSync(join(tmpdir(), "dash-nginx-"));
    mkdirSync(join(prefix, "logs"));
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    writeFileSync(
      join(prefix, "nginx.conf"),
      nginxConfig(
        port,
        instances.map((instance) => instance.port),
      ),
    );
    const check = spawnSync(NGINX, ["-t", "-p", prefix, "-c", "nginx.conf", "-g", "pid nginx.pid; error_log logs/error.log;"], {
      encoding: "utf8",
    });
    expect(check.status, check.stderr).toBe(0);
    nginx = spawn(NGINX, ["-p", prefix, "-c", "nginx.conf", "-g", "daemon off; pid nginx.pid; error_log logs/error.log;"], {
      stdio: "ignore",
    });
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await sleep(100)) {
      if (
        await get("/api/health/live").then(
          (response) => response.ok,
          () => false,
        )
      )
        break;
    }
  }, 600_000);

  afterAll(async () => {
    nginx?.kill("SIGTERM");
    await Promise.all(instances.map((instance) => instance.kill()));
    await relay?.close();
    await upstream?.close();
    await dropDatabase?.();
    if (prefix) rmSync(prefix, { recursive: true, force: true });
  }, 60_000);

  it("spreads requests over both instances, round robin, with one session valid on each", async () => {
    const served = new Set<string>();
    for (let i = 0; i < 6; i++) served.add(((await (await get("/api/health/live")).json()) as { instance: string }).instance);
    expect(served.size).toBe(2);

    const signedIn = await signIn(origin);
    expect(signedIn.status).toBe(200);
    const cookie = signedIn.headers.get("set-cookie")!.split(";")[0]!;
    for (let i = 0; i < 6; i++) expect((await get(`/api/stores/${US_STORE}/saved-views`, cookie)).status).toBe(200);
  });

  it("takes the page's origin from X-Forwarded-Host: sign-in works on a port without APP_ORIGIN, a foreign origin is still refused", async () => {
    // The config sends `Host: $host` (no port), the common setting that used to make every sign-in cross-site.
    expect((await signIn(origin)).status).toBe(200);
    const foreign = await signIn("https://evil.example");
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ code: "cross_site" });
  });

  it("answers with nginx's request id and logs it on both sides", async () => {
    const response = await get("/api/health/live");
    const requestId = response.headers.get("x-request-id");
    expect(requestId).toMatch(/^[0-9a-f]{32}$/);
    await sleep(200);
    expect(readFileSync(join(prefix, "logs", "dashboard-access.log"), "utf8")).toContain(`request_id=${requestId}`);
  });

  it("restarts each instance in turn under steady traffic with no failed request", async () => {
    const cookie = (await signIn(origin)).headers.get("set-cookie")!.split(";")[0]!;
    const statuses = new Map<number, number>();
    let running = true;
    const client = async () => {
      for (let i = 0; running; i++) {
        const path = i % 2 === 0 ? "/api/session" : `/api/stores/${US_STORE}/saved-views`;
        const status = await get(path, cookie).then(
          (response) => response.status,
          () => 0,
        );
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        await sleep(50);
      }
    };
    const clients = [client(), client(), client()];
    // As the runbook (docs/operations.md) says: stop one, start it, wait for its readiness and fail_timeout (2 s), then the next.
    for (const instance of instances) {
      await sleep(500);
      expect(await instance.stop()).toBe(0);
      await instance.start();
      for (const deadline = Date.now() + 30_000; (await instance.request("/api/health/ready")).status !== 200 && Date.now() < deadline;)
        await sleep(100);
      await sleep(2_500);
    }
    running = false;
    await Promise.all(clients);
    const total = [...statuses.values()].reduce((sum, count) => sum + count, 0);
    expect(Object.fromEntries(statuses)).toEqual({ 200: total });
    expect(total).toBeGreaterThan(50);
  }, 180_000);

  it("a database cut answers JSON 503 through nginx without marking both instances dead, and recovers at once", async () => {
    const cookie = (await signIn(origin)).headers.get("set-cookie")!.split(";")[0]!;
    await relay.cut();
    try {
      for (let i = 0; i < 8; i++) {
        const response = await get("/api/session", cookie);
        expect(response.status).toBe(503);
        expect(response.headers.get("content-type")).toMatch(/^application\/json/);
        expect(await response.json()).toMatchObject({ code: "database_unavailable" });
      }
    } finally {
      await relay.restore();
    }
    expect(errorLog()).not.toContain("no live upstreams");
    const deadline = Date.now() + 15_000;
    let status = 0;
    while (Date.now() < deadline && (status = (await get("/api/session", cookie)).status) !== 200) await sleep(100);
    expect(status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await get("/api/session", cookie)).status).toBe(200);
  }, 60_000);
});
