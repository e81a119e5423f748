import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildIdOf, buildIsCurrent, pruneReleases, releasesDir, sourceHash, switchCurrent } from "./releases.mjs";

let root: string;

function write(path: string, text: string) {
  mkdirSync(join(root, path, ".."), { recursive: true });
  writeFileSync(join(root, path), text);
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "source-hash-"));
  write("app/page.tsx", "export default function Page() { return null; }\n");
  write("shared/format.ts", "export const x = 1;\n");
  write("package-lock.json", '{"lockfileVersion":3}\n');
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("sourceHash", () => {
  it("is a sha256 that ignores modification times, as npm install touches the lockfile", () => {
    const before = sourceHash(root);
    expect(before).toMatch(/^[0-9a-f]{64}$/);
    const later = new Date(Date.now() + 3_600_000);
    for (const file of ["package-lock.json", "app/page.tsx", "shared/format.ts"]) utimesSync(join(root, file), later, later);
    expect(sourceHash(root)).toBe(before);
  });

  it("changes when a source is edited, added or renamed", () => {
    const hashes = [sourceHash(root)];
    write("shared/format.ts", "export const x = 2;\n");
    hashes.push(sourceHash(root));
    write("components/chart.tsx", "export {};\n");
    hashes.push(sourceHash(root));
    renameSync(join(root, "components/chart.tsx"), join(root, "components/charts.tsx"));
    hashes.push(sourceHash(root));
    write("package-lock.json", '{"lockfileVersion":3,"packages":{}}\n');
    hashes.push(sourceHash(root));
    expect(new Set(hashes).size).toBe(hashes.length);
  });

  it("leaves out unit tests and files outside the build inputs", () => {
    const before = sourceHash(root);
    write("shared/format.test.ts", "it('x', () => {});\n");
    write("e2e/page.spec.ts", "export {};\n");
    write("README.md", "# readme\n");
    expect(sourceHash(root)).toBe(before);
  });
});

/** A complete release of `hash` under .releases/, as scripts/build.mjs assembles it. */
function release(hash: string): string {
  const id = buildIdOf(hash);
  for (const file of ["server.mjs", "rows-worker.mjs", ".next/BUILD_ID", ".next/required-server-files.json", ".next/static/chunk.js"])
    write(`.releases/${id}/${file}`, "x");
  write(`.releases/${id}/release.json`, JSON.stringify({ buildId: id, sourceHash: hash, version: "1", migration: "", builtAt: "" }));
  return id;
}

describe("releases", () => {
  it("are current only while `current` points at a complete release of these very sources", () => {
    expect(buildIsCurrent(root)).toBe(false);
    const id = release(sourceHash(root));
    expect(buildIsCurrent(root)).toBe(false);
    switchCurrent(root, id);
    expect(buildIsCurrent(root)).toBe(true);
    rmSync(join(releasesDir(root), id, "server.mjs"));
    expect(buildIsCurrent(root)).toBe(false);
    write(`.releases/${id}/server.mjs`, "x");
    write("app/page.tsx", "export default function Page() { return 1; }\n");
    expect(buildIsCurrent(root)).toBe(false);
  });

  it("are pruned to the newest, never the current one nor one a server runs from", async () => {
    const ids = ["a", "b", "c", "d", "e"].map((tag) => release(tag.repeat(16)));
    // A live process runs from the second oldest (its working directory, as serve.mjs runs from its release).
    const server = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"], { cwd: join(releasesDir(root), ids[1]!) });
    await new Promise((resolve) => server.once("spawn", resolve));
    ids.forEach((id, index) => {
      const at = new Date(Date.now() - (10 - index) * 60_000);
      utimesSync(join(releasesDir(root), id), at, at);
    });
    switchCurrent(root, ids[0]!);
    try {
      pruneReleases(root, 2);
    } finally {
      server.kill("SIGKILL");
    }
    expect(ids.map((id) => existsSync(join(releasesDir(root), id)))).toEqual([true, true, false, true, true]);
  });
});
