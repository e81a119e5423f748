#!/usr/bin/env node
// npm run size: the product code's lines (what a newcomer reads), its longest files, and the
// pairs of places that repeat one another (the `duplicates` command, where this machine has it).
// Product code: *.ts, *.tsx, *.mjs, *.css and *.sql under app, components, client, server and
// shared, plus the root's own modules (proxy.ts, instrumentation.ts), tests left out.
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";

const LIMIT = 300;
const tracked = execFileSync("git", ["ls-files", "-z"], { encoding: "utf8" }).split("\0").filter(Boolean);
const isProduct = (path) =>
  (/^(app|components|client|server|shared)\//.test(path) || /^[^/]+\.(ts|tsx|mjs)$/.test(path)) &&
  /\.(ts|tsx|mjs|css|sql)$/.test(path) &&
  !/\.(test|spec)\.|\.config\.|\.d\.ts$/.test(path);
const files = tracked.filter(isProduct).map((path) => ({ path, lines: readFileSync(path, "utf8").split("\n").length - 1 }));
const total = files.reduce((sum, file) => sum + file.lines, 0);

const byFolder = new Map();
for (const file of files) {
  const folder = file.path.includes("/") ? file.path.split("/")[0] : "(root)";
  byFolder.set(folder, (byFolder.get(folder) ?? 0) + file.lines);
}
console.log(`Product code: ${total.toLocaleString("en-US")} lines in ${files.length} files`);
for (const [folder, lines] of [...byFolder].sort((a, b) => b[1] - a[1])) console.log(`  ${folder.padEnd(12)} ${String(lines).padStart(6)}`);

const longest = [...files].sort((a, b) => b.lines - a.lines).slice(0, 10);
console.log(`\nLongest files (over ${LIMIT} lines: ${files.filter((file) => file.lines > LIMIT).length}):`);
for (const file of longest) console.log(`  ${String(file.lines).padStart(5)}  ${file.path}${file.lines > LIMIT ? "  (over)" : ""}`);

const duplicates = spawnSync("duplicates", ["--seconds", "120", "--most", "200"], { encoding: "utf8" });
if (duplicates.error) console.log("\nDuplicate pairs: the `duplicates` command is not on this machine.");
else {
  const rows = duplicates.stdout.split("\n").filter((line) => /^D\d+ /.test(line));
  const identical = rows.filter((line) => !/ shape\b/.test(line)).length;
  console.log(`\nDuplicate pairs: ${duplicates.stdout.split("\n")[0]}`);
  console.log(`  identical text: ${identical}; by shape alone: ${rows.length - identical}`);
}
