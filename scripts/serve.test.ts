import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ROOT } from "@/test/processes";
import { buildIdOf, sourceHash, switchCurrent } from "./releases.mjs";

/**
 * `npm run start:prod` (scripts/serve.mjs) in a checkout of its own, with releases made by hand:
 * it serves only a complete release of the checkout's sources, never whatever a build left.
 */
let root: string;

function write(path: string, text: string) {
  mkdirSync(join(root, path, ".."), { recursive: true });
  writeFileSync(join(root, path), text);
}

/** A release whose server program only says which release it is. */
function release(hash: string, { complete = true } = {}): string {
  const id = buildIdOf(hash);
  write(`.releases/${id}/server.mjs`, `console.log("serving ${id} from " + process.cwd() + ", data in " + process.env.DATA_DIR);\n`);
  write(`.releases/${id}/rows-worker.mjs`, "");
  write(`.releases/${id}/.next/BUILD_ID`, id);
  write(`.releases/${id}/.next/static/chunk.js`, "x");
  if (complete) write(`.releases/${id}/.next/required-server-files.json`, "{}");
  write(`.releases/${id}/release.json`, JSON.stringify({ buildId: id, sourceHash: hash }));
  return id;
}

function serve(args: string[] = [], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [join(root, "scripts", "serve.mjs"), ...args], {
    cwd: root,
    encoding: "utf8",
    timeout: 30_000,
    env: { ...process.env, DATA_DIR: "", ...env },
  });
  return { code: result.status, out: `${result.stdout}${result.stderr}`.trim() };
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "dash-serve-"));
  // What the runtime image holds of them (Containerfile): the two scripts and the server's PID-file module.
  for (const file of ["scripts/serve.mjs", "scripts/releases.mjs", "server/runtime/pid-file.mjs"])
    cpSync(join(ROOT, file), join(root, file));
  write("app/page.tsx", "export default function Page() { return null; }\n");
  write("server/main.ts", "export {};\n");
  write("package-lock.json", '{"lockfileVersion":3}\n');
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("npm run start:prod", () => {
  it("refuses, in one line, when nothing was built", () => {
    expect(serve()).toEqual({ code: 1, out: "There is no complete build in .releases/current: run `npm run build` first." });
  });

  it("never serves a release a build left halfway, even when current points at it", () => {
    switchCurrent(root, release(sourceHash(root), { complete: false }));
    expect(serve()).toMatchObject({ code: 1, out: expect.stringContaining("no complete build") });
  });

  it("serves the current release of these sources from its own folder, with the embedded database where it was started", () => {
    const id = release(sourceHash(root));
    switchCurrent(root, id);
    const from = `serving ${id} from ${join(root, ".releases", id)}`;
    expect(serve()).toEqual({ code: 0, out: `${from}, data in ${join(root, ".data")}` });
    expect(serve([], { DATA_DIR: "state/db" })).toEqual({ code: 0, out: `${from}, data in ${join(root, "state/db")}` });
    expect(serve([], { DATA_DIR: "/var/lib/dashboard" })).toEqual({ code: 0, out: `${from}, data in /var/lib/dashboard` });
  });

  it("refuses a release of other sources unless --any-sources says so", () => {
    const id = release(sourceHash(root));
    switchCurrent(root, id);
    write("app/page.tsx", "export default function Page() { return 1; }\n");
    const refused = serve();
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(new RegExp(`^The build in \\.releases/current \\(${id}\\) was made from other sources than this checkout`));
    expect(serve(["--any-sources"])).toMatchObject({ code: 0, out: expect.stringContaining(`serving ${id}`) });
  });
});
