import { spawn, spawnSync } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { describeDemo } from "./describe";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
// `node --import tsx` rather than the tsx CLI, so signals reach the server process directly.
const ARGS = ["--import", "tsx", "demo-upstream/cli.ts"];

function runSync(...flags: string[]) {
  return spawnSync(process.execPath, [...ARGS, ...flags], { cwd: ROOT, encoding: "utf8", timeout: 20_000 });
}

describe("cli.ts", () => {
  it("--describe prints describeDemo(seed) as JSON and exits 0", () => {
    const result = runSync("--describe", "--seed", "7");
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(describeDemo(7));
  });

  it("--describe --odd lists the odd store's key and ad account too", () => {
    const result = runSync("--describe", "--odd");
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(describeDemo(42, true));
  });

  it("--help prints the usage and exits 0", () => {
    const result = runSync("--help");
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/--scale N/);
  });

  it.each([
    [["--port", "http"], /--port must be an integer/],
    [["--bogus"], /unknown argument "--bogus"/],
    [["--faults", '[{"route":"nowhere"}]'], /--faults is invalid at 0\.route/],
  ])("exits 2 with a clear message for bad flags %j", (flags, message) => {
    const result = runSync(...flags);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it("exits 1 with one line naming the port when it is in use", async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const { port } = holder.address() as { port: number };
    try {
      const result = runSync("--port", String(port));
      expect(result.status).toBe(1);
      expect(result.stderr.trim().split("\n")).toEqual([
        expect.stringMatching(new RegExp(`port ${port} is already in use.*DEMO_UPSTREAM_PORT`)),
      ]);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it("prints the listening line, serves requests, and exits 0 on SIGTERM", async () => {
    const child = spawn(process.execPath, [...ARGS, "--port", "0", "--control"], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    try {
      const baseUrl = await new Promise<string>((resolve, reject) => {
        let out = "";
        child.stdout.on("data", (chunk: Buffer) => {
          out += chunk.toString();
          const match = /^demo upstream listening on (http:\/\/127\.0\.0\.1:\d+\/v1)\n/.exec(out);
          if (match?.[1]) resolve(match[1]);
        });
        child.once("exit", (code) => reject(new Error(`exited early with ${code}`)));
      });
      const res = await fetch(`${baseUrl}/me`, { headers: { "x-api-key": "sk_demo_admin_kumo_jp_3c9e71f4b2a5" } });
      expect(res.status).toBe(200);
      expect((await fetch(baseUrl.replace(/\/v1$/, "/__control/state"))).status).toBe(200);
      const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  });
});
