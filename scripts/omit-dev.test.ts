import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startDemoUpstream, type DemoUpstream } from "@/demo-upstream/server";
import { childEnv, eventually, freePort, ROOT, runNode, type RunningScript } from "@/test/processes";

/**
 * As docs/operations.md says: a fresh copy of the checkout installed without devDependencies builds a
 * release and serves it. npm installs from its cache, filled by the checkout's own install.
 */
const copy = mkdtempSync(join(tmpdir(), "dash-omit-dev-"));
let upstream: DemoUpstream | undefined;
let server: RunningScript | undefined;

afterAll(async () => {
  await server?.kill();
  await upstream?.close();
  // The copy holds an install and a build: removing it takes a while on a busy machine.
  rmSync(copy, { recursive: true, force: true });
}, 300_000);

function run(command: string, args: string[]) {
  const result = spawnSync(command, args, { cwd: copy, encoding: "utf8", timeout: 400_000, env: childEnv({ NODE_ENV: "production" }) });
  expect(result.status, `${command} ${args.join(" ")}\n${result.stdout}\n${result.stderr}`).toBe(0);
}

describe("npm install --omit=dev, then build and serve", () => {
  it("builds a release and answers its pages", async () => {
    const files = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: ROOT, encoding: "utf8" })
      .stdout.split("\0")
      .filter((file) => file && existsSync(join(ROOT, file)));
    for (const file of files) cpSync(join(ROOT, file), join(copy, file), { recursive: true });
    run("npm", ["ci", "--omit=dev", "--prefer-offline", "--no-audit", "--no-fund"]);
    run("npm", ["run", "build"]);

    upstream = await startDemoUpstream({ port: 0 });
    const port = await freePort();
    server = runNode([join(copy, "scripts", "serve.mjs")], {
      UPSTREAM_BASE_URL: upstream.baseUrl,
      PORT: String(port),
      NODE_ENV: "production",
      SESSION_SECRET: "omit-dev-test-secret-".padEnd(48, "x"),
      EMBEDDED_DATABASE: "1",
      DATA_DIR: join(copy, ".data"),
    });
    await server.waitFor(/Listening on/, 120_000);
    expect(await eventually(async () => (await fetch(`http://127.0.0.1:${port}/api/health/ready`)).ok, 30_000)).toBe(true);
    const page = await fetch(`http://127.0.0.1:${port}/sign-in`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Sign in");
  }, 600_000);
});
