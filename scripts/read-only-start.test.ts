/**
 * The production start as an operator runs it on a locked-down host: an unprivileged user
 * (`nobody`), a release it cannot write to, a working directory it cannot write to. It writes
 * nothing into the release, names the setting of the one folder it needs when it has none, and
 * serves a sign-in once given one.
 */
import { spawn } from "node:child_process";
import { chmodSync, chownSync, mkdtempSync, readdirSync, realpathSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDemoUpstream, type DemoUpstream } from "@/demo-upstream/server";
import { ADMIN_KEY } from "@/test/harness";
import { childEnv, ensureBuild, freePort, ROOT } from "@/test/processes";

const NOBODY = 65_534;
const asRoot = process.getuid?.() === 0;
let upstream: DemoUpstream;
const dirs: string[] = [];

/** Every file of a folder with its size and modification time: what a write would change. */
function snapshot(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .map((entry) => join(entry.parentPath, entry.name))
    .map((path) => {
      const stat = statSync(path, { throwIfNoEntry: false });
      return `${path} ${stat?.size} ${stat?.mtimeMs}`;
    })
    .sort();
}

function serveAsNobody(cwd: string, env: Record<string, string>) {
  const child = spawn(
    "setpriv",
    [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", process.execPath, join(ROOT, "scripts/serve.mjs")],
    { cwd, env: childEnv({ UPSTREAM_BASE_URL: upstream.baseUrl, SESSION_SECRET: "read-only-start-secret-".padEnd(48, "x"), ...env }) },
  );
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, exited, output: () => output };
}

/** A folder `nobody` may enter and read but not write (as the checkout and the release are to it). */
function readOnlyFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), "dash-ro-"));
  chmodSync(dir, 0o755);
  dirs.push(dir);
  return dir;
}

beforeAll(async () => {
  if (!asRoot) return;
  ensureBuild();
  upstream = await startDemoUpstream({ port: 0 });
}, 600_000);

afterAll(async () => {
  await upstream?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!asRoot)("the production start as an unprivileged user", () => {
  it("names DATA_DIR when it has no writable folder for the embedded database", async () => {
    const server = serveAsNobody(readOnlyFolder(), { EMBEDDED_DATABASE: "1", PORT: String(await freePort()) });
    expect(await server.exited).toBe(1);
    expect(server.output()).toMatch(/DATA_DIR \S+\/\.data cannot hold the embedded database: .*DATA_DIR/s);
  }, 120_000);

  it("runs from a release it cannot write to, writes nothing into it, and signs in", async () => {
    const release = realpathSync(join(ROOT, ".releases/current"));
    const before = snapshot(release);
    const data = mkdtempSync(join(tmpdir(), "dash-ro-data-"));
    dirs.push(data);
    chownSync(data, NOBODY, NOBODY);
    const port = await freePort();
    const server = serveAsNobody(readOnlyFolder(), { EMBEDDED_DATABASE: "1", DATA_DIR: data, PORT: String(port) });
    try {
      for (const deadline = Date.now() + 90_000; !/Listening on/.test(server.output()); await new Promise((r) => setTimeout(r, 200))) {
        if (Date.now() > deadline || server.child.exitCode !== null) throw new Error(`did not start:\n${server.output()}`);
      }
      const origin = `http://127.0.0.1:${port}`;
      const signIn = await fetch(`${origin}/api/session`, {
        method: "POST",
        headers: { origin, "content-type": "application/json" },
        body: JSON.stringify({ apiKey: ADMIN_KEY }),
      });
      expect(signIn.status).toBe(200);
      const cookie = signIn.headers.get("set-cookie")!.split(";")[0]!;
      const home = await fetch(`${origin}/`, { headers: { cookie }, redirect: "manual" });
      expect(home.status).toBeLessThan(400);
      expect((await fetch(`${origin}/api/health/ready`)).status).toBe(200);
    } finally {
      server.child.kill("SIGTERM");
      await server.exited;
    }
    expect(snapshot(release)).toEqual(before);
    expect(server.output()).not.toMatch(/EACCES|EROFS|permission denied/i);
  }, 180_000);
});
