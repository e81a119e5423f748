/**
 * The documentation against the code: every setting it names is one the dashboard reads, every
 * `npm run` script exists, every repository path and link points at a file, and
 * docs/configuration.md is exactly what `npm run check-config -- --format markdown` prints.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { SETTING_DOCS, settingsMarkdown } from "@/server/config/reference";
import { settingNames } from "@/server/config/settings";
import { childEnv, ROOT } from "@/test/processes";

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? markdownFiles(join(dir, entry.name)) : entry.name.endsWith(".md") ? [join(dir, entry.name)] : [],
  );
}

const pages = [join(ROOT, "README.md"), ...markdownFiles(join(ROOT, "docs"))].map((file) => ({
  file,
  name: relative(ROOT, file),
  text: readFileSync(file, "utf8"),
}));

/** Text in backticks, and in fenced code blocks line by line. */
function codeSpans(text: string): string[] {
  const fenced = [...text.matchAll(/```[a-z]*\n([\s\S]*?)```/g)].flatMap((match) => match[1]!.split("\n"));
  const inline = [...text.replace(/```[\s\S]*?```/g, "").matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!);
  return [...inline, ...fenced];
}

/** Names the code reads from the environment outside the settings schema (test tools, scripts). */
const sourceText = spawnSync("git", ["grep", "-h", "-I", "process.env", "--", "*.ts", "*.mts", "*.mjs", ".ci"], {
  cwd: ROOT,
  encoding: "utf8",
}).stdout;

describe("the documentation", () => {
  it("names only settings the dashboard reads", () => {
    const known = new Set(settingNames());
    const unknown: string[] = [];
    for (const page of pages) {
      for (const span of codeSpans(page.text)) {
        for (const [name] of span.matchAll(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g)) {
          if (!known.has(name) && !sourceText.includes(`process.env.${name}`) && !sourceText.includes(`"${name}"`))
            unknown.push(`${page.name}: ${name}`);
        }
      }
    }
    expect(unknown).toEqual([]);
  });

  it("documents every setting the schemas read, and nothing else, in the reference", () => {
    expect(SETTING_DOCS.map((doc) => doc.name).sort()).toEqual(
      [...settingNames(), "NODE_ENV"].filter((n, i, all) => all.indexOf(n) === i).sort(),
    );
  });

  it("links every promise of docs/security.md to a test of that title in the file it names", () => {
    const security = pages.find((page) => page.name === "docs/security.md")!.text;
    const rows = security
      .slice(security.indexOf("## Promises and the tests that prove them"))
      .split("\n")
      .filter((line) => line.startsWith("| ") && !line.startsWith("| Promise"));
    expect(rows.length).toBeGreaterThan(20);
    const missing: string[] = [];
    for (const row of rows) {
      const [, where = "", titles = ""] = row.split(" | ");
      const files = [...where.matchAll(/`([^`]+\.test\.ts)`/g)].map((match) => readFileSync(join(ROOT, match[1]!), "utf8"));
      for (const [, title] of titles.matchAll(/"([^"]+)"/g))
        if (files.length > 0 && !files.some((text) => text.includes(`"${title}"`))) missing.push(title!);
    }
    expect(missing).toEqual([]);
  });

  it("runs only npm scripts that exist", () => {
    const scripts = Object.keys((JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: object }).scripts);
    const missing = pages.flatMap((page) =>
      [...page.text.matchAll(/npm run ([a-z][\w:-]*)/g)]
        .map((match) => match[1]!)
        .filter((script) => !scripts.includes(script))
        .map((s) => `${page.name}: ${s}`),
    );
    expect(missing).toEqual([]);
    expect(scripts).toEqual(expect.arrayContaining(["start", "test"]));
  });

  it("names only repository files that exist, and links only to files that exist", () => {
    // Tracked files only: a git-ignored folder (screenshots/, .data/) is not in a fresh clone.
    const tracked = spawnSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], { cwd: ROOT, encoding: "utf8" }).stdout;
    const top = new Set(
      tracked
        .split("\n")
        .filter(Boolean)
        .map((file) => file.split("/")[0]),
    );
    const missing: string[] = [];
    for (const page of pages) {
      for (const span of codeSpans(page.text)) {
        for (const token of span.split(/[\s,()]+/)) {
          const path = token.replace(/[.:;]+$/, "").replace(/^\.\//, "");
          const head = path.split("/")[0]!;
          // Repository paths only: not URLs, routes (/api/…), placeholders (<id>, {storeUrl}, …) or globs.
          if (!path.includes("/") && !/\.(ts|tsx|mjs|mts|json|conf|sql|yaml|md)$/.test(path)) continue;
          if (!top.has(head) || /[<>{}*…]/.test(path) || path.startsWith(".releases/") || path.startsWith(".data")) continue;
          if (!existsSync(join(ROOT, path))) missing.push(`${page.name}: ${path}`);
        }
      }
      for (const [, target] of page.text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        if (!existsSync(join(dirname(page.file), target!))) missing.push(`${page.name}: link ${target}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("keeps docs/configuration.md equal to what check-config prints", () => {
    const printed = spawnSync(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", "server/cli/check-config.ts", "--format", "markdown"],
      { cwd: ROOT, env: childEnv({}), encoding: "utf8", timeout: 60_000 },
    );
    expect(printed.status).toBe(0);
    expect(printed.stdout).toBe(settingsMarkdown());
    expect(readFileSync(join(ROOT, "docs/configuration.md"), "utf8")).toBe(printed.stdout);
  }, 60_000);

  it("keeps the README short, with the two commands", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    expect(readme.split("\n").length).toBeLessThanOrEqual(150);
    expect(readme).toContain("npm install && npm start");
    expect(readme).toContain("npm test ");
    // What a first start needs to know: the ports it takes and that it builds first.
    expect(readme).toContain("PORT=");
    expect(readme).toContain("DEMO_UPSTREAM_PORT=");
    expect(readme).toMatch(/first start builds .* few minutes/);
  });
});
