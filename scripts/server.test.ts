import { rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startDemoUpstream, type DemoUpstream } from "@/demo-upstream/server";
import { ADMIN_KEY } from "@/test/harness";
import { copyOfTemplate } from "@/test/pglite-template";
import { ensureBuild, freePort, holdPort, runNode, SERVE, type RunningScript } from "@/test/processes";

let upstream: DemoUpstream;
const running: RunningScript[] = [];

beforeAll(async () => {
  upstream = await startDemoUpstream({ port: 0 });
});

const dataDirs: string[] = [];

afterAll(async () => {
  await upstream.close();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

afterEach(async () => {
  upstream.reset();
  await Promise.all(running.splice(0).map((script) => script.kill()));
});

async function startServer(env: Record<string, string> = {}, nodeArgs: string[] = []) {
  const port = await freePort();
  const server = runNode([...nodeArgs, ...SERVE], {
    PORT: String(port),
    UPSTREAM_BASE_URL: upstream.baseUrl,
    SESSION_SECRET: "server-test-secret-".padEnd(48, "x"),
    EMBEDDED_DATABASE: "1",
    DATA_DIR: dataDirs[dataDirs.push(copyOfTemplate()) - 1]!,
    ...env,
  });
  running.push(server);
  await server.waitFor(/Listening on/);
  return { server, port, origin: `http://localhost:${port}` };
}

/** Opens a raw connection; resolves once it is connected. */
function openSocket(
  port: number,
): Promise<{ socket: Socket; received: () => string; closedAfterMs: Promise<number>; idleBeforeCloseMs: Promise<number> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "localhost");
    let received = "";
    const opened = performance.now();
    let lastData = opened;
    socket.on("data", (chunk) => {
      received += chunk.toString();
      lastData = performance.now();
    });
    const closed = new Promise<number>((done) => socket.once("close", () => done(performance.now())));
    const closedAfterMs = closed.then((at) => at - opened);
    // How long the connection sat idle after the last byte of the last answer.
    const idleBeforeCloseMs = closed.then((at) => at - lastData);
    socket.once("error", reject);
    socket.once("connect", () => resolve({ socket, received: () => received, closedAfterMs, idleBeforeCloseMs }));
  });
}

/** Writes one byte a second until the socket closes. */
function trickle(socket: Socket, text: string) {
  let index = 0;
  const timer = setInterval(() => (index < text.length && !socket.destroyed ? socket.write(text[index++]!) : clearInterval(timer)), 1_000);
  socket.once("close", () => clearInterval(timer));
}

async function signIn(origin: string): Promise<string> {
  const response = await fetch(`${origin}/api/session`, {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: JSON.stringify({ apiKey: ADMIN_KEY }),
  });
  expect(response.status).toBe(200);
  return response.headers.get("set-cookie")!.split(";")[0]!;
}

describe("server.mjs", () => {
  beforeAll(() => ensureBuild(), 600_000);

  it("reports PORT in use in one line and exits 1", async () => {
    const held = await holdPort();
    try {
      const server = runNode(SERVE, {
        PORT: String(held.port),
        UPSTREAM_BASE_URL: upstream.baseUrl,
        SESSION_SECRET: "server-test-secret-".padEnd(48, "x"),
        EMBEDDED_DATABASE: "1",
      });
      running.push(server);
      expect(await server.exited).toBe(1);
      expect(server.output().trim().split("\n")).toEqual([expect.stringMatching(new RegExp(`^PORT ${held.port} is already in use`))]);
    } finally {
      await held.release();
    }
  });

  it("refuses a malformed timeout setting, naming it", async () => {
    const server = runNode(SERVE, { PORT: String(await freePort()), SERVER_REQUEST_TIMEOUT_MS: "soon" });
    running.push(server);
    expect(await server.exited).toBe(1);
    expect(server.output()).toMatch(/^Configuration error: SERVER_REQUEST_TIMEOUT_MS must be a whole number/);
  });

  it("serves the icon pages link to", async () => {
    const { origin } = await startServer();
    const html = await (await fetch(`${origin}/sign-in`)).text();
    const href = /<link rel="icon" href="([^"]+)"/.exec(html)?.[1];
    expect(href).toMatch(/^\/icon\.svg/);
    const icon = await fetch(new URL(href!, origin));
    expect(icon.status).toBe(200);
    expect(icon.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    expect(await icon.text()).toMatch(/^<svg /);
  });

  describe("slow clients are cut off", () => {
    const timeouts = { SERVER_HEADERS_TIMEOUT_MS: "1000", SERVER_REQUEST_TIMEOUT_MS: "2000", SERVER_KEEP_ALIVE_TIMEOUT_MS: "1000" };

    it("a body sent at 1 byte/s: 408 and the connection closed by the request timeout", async () => {
      const { port } = await startServer(timeouts);
      const { socket, received, closedAfterMs } = await openSocket(port);
      socket.write(
        `POST /api/session HTTP/1.1\r\nHost: localhost:${port}\r\norigin: http://localhost:${port}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n`,
      );
      trickle(socket, `{"apiKey":"${"x".repeat(80)}"}`);
      expect(await closedAfterMs).toBeLessThan(6_000);
      expect(received()).toMatch(/^HTTP\/1\.1 408 /);
    }, 20_000);

    it("headers sent at 1 byte/s: 408 and the connection closed by the headers timeout", async () => {
      const { port } = await startServer(timeouts);
      const { socket, received, closedAfterMs } = await openSocket(port);
      trickle(socket, `GET /sign-in HTTP/1.1\r\nHost: localhost:${port}\r\n\r\n`);
      expect(await closedAfterMs).toBeLessThan(5_000);
      expect(received()).toMatch(/^HTTP\/1\.1 408 /);
    }, 20_000);

    it("an idle keep-alive connection is closed after the keep-alive timeout", async () => {
      const { port } = await startServer(timeouts);
      const { socket, received, idleBeforeCloseMs } = await openSocket(port);
      socket.write(`GET /sign-in HTTP/1.1\r\nHost: localhost:${port}\r\n\r\n`);
      // The page may take a while to render on a busy machine; the timeout counts from the answer.
      expect(await idleBeforeCloseMs).toBeLessThan(4_000);
      expect(received()).toMatch(/^HTTP\/1\.1 200 /);
    }, 20_000);
  });

  describe("graceful stop", () => {
    it("on SIGTERM, finishes the request in flight, refuses new connections, runs the shutdown hooks and exits 0", async () => {
      const { server, port, origin } = await startServer({}, ["--import", "./test/shutdown-hook-probe.mjs"]);
      const cookie = await signIn(origin);
      upstream.setFaults([{ route: "me", latencyMs: 1_500 }]);
      const inFlight = fetch(`${origin}/api/v1/me`, { headers: { cookie } });
      while (upstream.requestCounts().me < 1) await new Promise((resolve) => setTimeout(resolve, 20));

      // Twice at once, as Ctrl-C under npm start delivers it: still one graceful stop.
      server.child.kill("SIGTERM");
      server.child.kill("SIGTERM");
      await server.waitFor(/SIGTERM: finishing the requests in flight/);
      await expect(openSocket(port)).rejects.toMatchObject({ code: "ECONNREFUSED" });
      const response = await inFlight;
      expect(response.status).toBe(200);
      expect(await response.json()).toHaveProperty("user");

      expect(await server.exited).toBe(0);
      const output = server.output();
      expect(output).toMatch(
        /hook 1 done[\s\S]*A shutdown hook did not finish within 5000 ms[\s\S]*A shutdown hook failed: hook 3 broke[\s\S]*hook 4 done/,
      );
    }, 30_000);

    it("cuts requests still in flight after SHUTDOWN_GRACE_MS, and a second signal a second later stops at once", async () => {
      // The shortest grace the settings allow is the upstream deadline plus 5 s: an upstream call always fits in it.
      // What outlives it is a client still sending its body.
      const first = await startServer({ UPSTREAM_TIMEOUT_MS: "500", SHUTDOWN_GRACE_MS: "5500" });
      const { socket, closedAfterMs } = await openSocket(first.port);
      socket.write(
        `POST /api/session HTTP/1.1\r\nHost: localhost:${first.port}\r\norigin: ${first.origin}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{`,
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      const signalled = performance.now();
      first.server.child.kill("SIGTERM");
      expect(await first.server.exited).toBe(0);
      const stoppedAfterMs = performance.now() - signalled;
      expect(stoppedAfterMs).toBeGreaterThan(5_000);
      expect(stoppedAfterMs).toBeLessThan(9_000);
      expect(await closedAfterMs).toBeLessThan(10_000);
      expect(first.server.output()).toMatch(/Requests still in flight after 5500 ms: closing their connections/);

      const second = await startServer();
      const secondCookie = await signIn(second.origin);
      upstream.setFaults([{ route: "me", latencyMs: 10_000 }]);
      const before = upstream.requestCounts().me;
      const pending = fetch(`${second.origin}/api/v1/me`, { headers: { cookie: secondCookie } }).catch(() => "cut");
      while (upstream.requestCounts().me === before) await new Promise((resolve) => setTimeout(resolve, 20));
      second.server.child.kill("SIGTERM");
      await second.server.waitFor(/SIGTERM: finishing/);
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      second.server.child.kill("SIGTERM");
      expect(await second.server.exited).toBe(1);
      expect(second.server.output()).toMatch(/SIGTERM again: stopping now/);
      expect(await pending).toBe("cut");
    }, 40_000);
  });
});
