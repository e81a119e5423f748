#!/usr/bin/env node
// The static checks of `npm test` (lint, formatting, types, unused code), as many at a time as the
// machine has cores: each is one busy thread, so on two cores two at once take about half as long
// as one after another. Each check's output is printed whole when it ends, failures last, and the
// exit status is non-zero when any failed.
import { spawn } from "node:child_process";
import { availableParallelism } from "node:os";

// The longest first, so that the others share the second core meanwhile.
const CHECKS = ["lint", "typecheck", "format:check", "knip"];

function run(script) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn("npm", ["run", "-s", script], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", (error) => resolve({ script, ok: false, output: String(error), seconds: 0 }));
    child.on("close", (code) => resolve({ script, ok: code === 0, output, seconds: (Date.now() - started) / 1000 }));
  });
}

const waiting = [...CHECKS];
const results = [];
const lane = async () => {
  for (let script = waiting.shift(); script; script = waiting.shift()) {
    const result = await run(script);
    results.push(result);
    if (result.ok) console.log(`✓ ${script} (${result.seconds.toFixed(1)} s)${result.output.trim() ? `\n${result.output.trimEnd()}` : ""}`);
  }
};
await Promise.all(Array.from({ length: Math.max(1, Math.min(availableParallelism(), CHECKS.length)) }, lane));
const failed = results.filter((result) => !result.ok);
for (const { script, output } of failed) console.error(`\n✗ npm run ${script} failed:\n${output.trimEnd()}`);
process.exit(failed.length > 0 ? 1 : 0);
