import { spawnSync } from "node:child_process";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  descendantsOf,
  ensureBuild,
  eventually,
  freePort,
  holdPort,
  portIsFree,
  ROOT,
  childEnv,
  runNode,
  START,
  type RunningScript,
} from "@/test/processes";
import { isRunning } from "@/server/runtime/pid-file.mjs";

const running: RunningScript[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((script) => script.kill()));
});

function startSync(env: Record<string, string>) {
  const started = performance.now();
  const result = spawnSync(process.execPath, START, {
    cwd: ROOT,
    encoding: "utf8",
    env: childEnv(env),
    timeout: 30_000,
  });
  return { ...result, elapsedMs: performance.now() - started };
}

describe("start.mjs refuses to start, in one line and before anything starts", () => {
  it.each(["nothing", "https://api.example.com/v2", "ftp://api.example.com/v1"])("UPSTREAM_BASE_URL=%s", async (value) => {
    const result = startSync({ UPSTREAM_BASE_URL: value, PORT: String(await freePort()) });
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split("\n")).toEqual([
      expect.stringMatching(/^UPSTREAM_BASE_URL must (be an http\(s\) URL|end in \/v1), got /),
    ]);
    expect(result.stderr).toContain(`"${value}"`);
    expect(result.stdout).toBe("");
  });

  it("PORT in use", async () => {
    const held = await holdPort();
    try {
      const result = startSync({ PORT: String(held.port), DEMO_UPSTREAM_PORT: String(await freePort()) });
      expect(result.status).toBe(1);
      expect(result.stderr.trim().split("\n")).toEqual([expect.stringMatching(new RegExp(`^PORT ${held.port} is already in use`))]);
      expect(result.stdout).toBe("");
    } finally {
      await held.release();
    }
  });

  it("DEMO_UPSTREAM_PORT in use", async () => {
    const held = await holdPort("127.0.0.1");
    try {
      const result = startSync({ PORT: String(await freePort()), DEMO_UPSTREAM_PORT: String(held.port) });
      expect(result.status).toBe(1);
      expect(result.stderr.trim().split("\n")).toEqual([
        expect.stringMatching(new RegExp(`^DEMO_UPSTREAM_PORT ${held.port} is already in use`)),
      ]);
    } finally {
      await held.release();
    }
  });

  it.each([
    ["PORT", "http"],
    ["DEMO_UPSTREAM_PORT", "70000"],
  ])("%s=%s", (name, value) => {
    const result = startSync({ [name]: value });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe(`${name} must be a whole number from 1 to 65535, got "${value}".`);
  });
});

describe("start.mjs stops what it started", () => {
  beforeAll(() => ensureBuild(), 600_000);

  async function startDashboard() {
    const [port, demoPort] = [await freePort(), await freePort()];
    const start = runNode(START, { PORT: String(port), DEMO_UPSTREAM_PORT: String(demoPort) }, { detached: true });
    running.push(start);
    await start.waitFor(/Dashboard ready/);
    const children = descendantsOf(start.child.pid!);
    expect(children.length).toBeGreaterThanOrEqual(2);
    expect(await portIsFree(port)).toBe(false);
    return { start, children, port, demoPort };
  }

  async function expectAllStopped({ children, port, demoPort }: Awaited<ReturnType<typeof startDashboard>>) {
    expect(children.filter(isRunning)).toEqual([]);
    // A killed process shows as a zombie a moment before its last thread has closed its sockets.
    expect(await eventually(() => portIsFree(port))).toBe(true);
    expect(await eventually(() => portIsFree(demoPort, "127.0.0.1"))).toBe(true);
  }

  it("on SIGTERM to it: the dashboard drains, the demo upstream stops, both have exited when it exits 0", async () => {
    const started = await startDashboard();
    started.start.child.kill("SIGTERM");
    expect(await started.start.exited).toBe(0);
    // Already gone when start.mjs exits: it waits for them.
    await expectAllStopped(started);
    // The dashboard's own lines pass through as it writes them: JSON, without a prefix.
    expect(started.start.output()).toMatch(/^\{"level":"info",.*"msg":"SIGTERM: finishing the requests in flight/m);
  }, 120_000);

  it("on Ctrl-C (SIGINT to the whole process group): one graceful stop, exit code 0", async () => {
    const started = await startDashboard();
    process.kill(-started.start.child.pid!, "SIGINT");
    expect(await started.start.exited).toBe(0);
    await expectAllStopped(started);
    expect(started.start.output()).toMatch(/SIGINT: finishing the requests in flight/);
    expect(started.start.output()).not.toMatch(/again: stopping now/);
  }, 120_000);

  it("on SIGKILL to its process group, as test runners clean up: nothing is left running", async () => {
    const started = await startDashboard();
    process.kill(-started.start.child.pid!, "SIGKILL");
    await started.start.exited;
    await eventually(() => !started.children.some(isRunning));
    await expectAllStopped(started);
  }, 120_000);
});
