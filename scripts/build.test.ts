import { mkdirSync, mkdtempSync, renameSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildIsCurrent, sourceHash } from "./build.mjs";

let root: string;

function write(path: string, text: string) {
  mkdirSync(join(root, path, ".."), { recursive: true });
  writeFileSync(join(root, path), text);
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "source-hash-"));
  write("app/page.tsx", "export default function Page() { return null; }\n");
  write("lib/format.ts", "export const x = 1;\n");
  write("package-lock.json", '{"lockfileVersion":3}\n');
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("sourceHash", () => {
  it("is a sha256 that ignores modification times, as npm install touches the lockfile", () => {
    const before = sourceHash(root);
    expect(before).toMatch(/^[0-9a-f]{64}$/);
    const later = new Date(Date.now() + 3_600_000);
    for (const file of ["package-lock.json", "app/page.tsx", "lib/format.ts"]) utimesSync(join(root, file), later, later);
    expect(sourceHash(root)).toBe(before);
  });

  it("changes when a source is edited, added or renamed", () => {
    const hashes = [sourceHash(root)];
    write("lib/format.ts", "export const x = 2;\n");
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
    write("lib/format.test.ts", "it('x', () => {});\n");
    write("e2e/page.spec.ts", "export {};\n");
    write("README.md", "# readme\n");
    expect(sourceHash(root)).toBe(before);
  });
});

describe("buildIsCurrent", () => {
  it("holds only while the recorded hash matches the sources", () => {
    expect(buildIsCurrent(root)).toBe(false);
    write(".next/BUILD_ID", "build\n");
    expect(buildIsCurrent(root)).toBe(false);
    write(".next/source-hash", sourceHash(root));
    expect(buildIsCurrent(root)).toBe(true);
    write("app/page.tsx", "export default function Page() { return 1; }\n");
    expect(buildIsCurrent(root)).toBe(false);
  });
});
