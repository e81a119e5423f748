/**
 * The documentation against the code: every setting it names is one the dashboard reads, every
 * `npm run` script exists, every repository path and link points at a file, every test link
 * (`[test](file "title")`) names a test of that title in that file, every statement of the proved
 * pages links one (or says it is not enforced), and docs/configuration.md is exactly what
 * `npm run check-config -- --format markdown` prints from the settings' `.meta()`.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { SETTING_DOCS, settingsMarkdown } from "@/server/config/markdown";
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

/** A link to the test that proves a sentence: `[test](path "the test's title")`, the path relative to the page. */
function testLinks(page: { file: string; text: string }): { path: string; title: string }[] {
  return [...page.text.matchAll(/\]\(([^)\s]+\.(?:test|spec)\.ts) "([^"]+)"\)/g)].map((match) => ({
    path: join(dirname(page.file), match[1]!),
    title: match[2]!,
  }));
}

/** Pages where every statement links its test: each list item, table row and paragraph. */
const PROVED_PAGES = [
  "docs/security.md",
  "docs/features/guarded-actions.md",
  "docs/features/alerts.md",
  "docs/features/key-ring.md",
  "docs/features/portfolio.md",
];

/** The statements of a page: list items, table rows (not the header) and paragraphs; headings and code left out. */
function statements(text: string): string[] {
  return text
    .replace(/```[\s\S]*?```/g, "")
    .split(/\n\s*\n/)
    .flatMap((block) => {
      const lines = block.split("\n");
      if (lines[0]!.startsWith("#") || lines[0]!.startsWith("![")) return [];
      if (lines[0]!.startsWith("|")) return lines.slice(2);
      if (lines[0]!.startsWith("- ")) return block.split(/\n(?=- )/);
      return [block];
    })
    .filter((statement) => statement.trim() && !statement.startsWith("What ") && !/^(Each|Every) (statement|promise)/.test(statement));
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

  it("describes every setting the schemas read, and nothing else, in the reference", () => {
    expect(SETTING_DOCS.map((doc) => doc.name).sort()).toEqual([...settingNames()].sort());
    expect(SETTING_DOCS.filter((doc) => !doc.description || !doc.fallback).map((doc) => doc.name)).toEqual([]);
  });

  it("links only tests that exist: every test link names a file and a test of that title in it", () => {
    const missing = pages.flatMap((page) =>
      testLinks(page)
        .filter(({ path, title }) => {
          const text = existsSync(path) ? readFileSync(path, "utf8") : "";
          return !['"', "'", "`"].some((quote) => text.includes(`${quote}${title}${quote}`));
        })
        .map(({ path, title }) => `${page.name}: ${relative(ROOT, path)} "${title}"`),
    );
    expect(missing).toEqual([]);
    expect(pages.flatMap(testLinks).length).toBeGreaterThan(80);
  });

  it("states no behaviour in the proved pages without the test that proves it, or says it is not enforced", () => {
    const all = pages
      .filter((page) => PROVED_PAGES.includes(page.name))
      .flatMap((page) => statements(page.text).map((statement) => ({ page: page.name, statement })));
    const unproved = all
      .filter(({ statement }) => !/\[test\]\(|not enforced/.test(statement))
      .map(({ page, statement }) => `${page}: ${statement.slice(0, 80)}`);
    expect(unproved).toEqual([]);
    expect(all.length).toBeGreaterThan(40);
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
