#!/usr/bin/env node
// Starts the dashboard: builds it when the build is missing or older than the sources,
// starts the demo upstream unless UPSTREAM_BASE_URL is set, then serves the dashboard.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createInterface } from "node:readline";

const root = fileURLToPath(new URL("..", import.meta.url));
const dev = process.argv.includes("--dev");
const port = process.env.PORT ?? "3000";
const demoPort = process.env.DEMO_UPSTREAM_PORT ?? "4010";
const nextBin = join(root, "node_modules/next/dist/bin/next");
const serverScript = join(root, "scripts/server.mjs");
const tsxBin = join(root, "node_modules/tsx/dist/cli.mjs");
const children = [];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestMtime(join(path, name))), stat.mtimeMs);
}

function buildIsStale() {
  const buildId = join(root, ".next/BUILD_ID");
  if (!existsSync(buildId)) return true;
  const sources = ["app", "components", "lib", "proxy.ts", "instrumentation.ts", "next.config.ts", "package-lock.json"];
  return sources.some((source) => newestMtime(join(root, source)) > statSync(buildId).mtimeMs);
}

function stopAll(code) {
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  process.exit(code);
}

function run(command, args, env) {
  const child = spawn(process.execPath, [command, ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  child.on("exit", (code, signal) => {
    console.error(`${args[0] ?? command} stopped (${signal ?? `exit code ${code}`}).`);
    stopAll(code ?? 1);
  });
  return child;
}

/** Echoes a child's output with a label; resolves once a line matches `pattern`, if one is given. */
function pipeOutput(child, label, pattern) {
  return new Promise((resolve) => {
    const lines = createInterface({ input: child.stdout });
    lines.on("line", (line) => {
      process.stdout.write(`[${label}] ${line}\n`);
      if (pattern?.test(line)) resolve(line);
    });
  });
}

async function waitForHttp(url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      await fetch(url, { redirect: "manual" });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

function printDemoKeys() {
  const describeArgs = ["lib/demo-upstream/cli.ts", "--describe", ...(process.env.DEMO_UPSTREAM_ODD === "1" ? ["--odd"] : [])];
  const described = spawnSync(process.execPath, [tsxBin, ...describeArgs], { cwd: root, encoding: "utf8" });
  if (described.status !== 0) return;
  const { keys } = JSON.parse(described.stdout);
  console.log("\nDemo keys (pick one on the sign-in page, or paste it):");
  for (const key of keys) console.log(`  ${key.key.padEnd(40)} ${key.state.padEnd(8)} ${key.label}`);
}

process.on("SIGINT", () => stopAll(0));
process.on("SIGTERM", () => stopAll(0));

if (!dev && buildIsStale()) {
  console.log("Building the dashboard (first start, or sources changed)…");
  const build = spawnSync(process.execPath, [nextBin, "build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const env = { NEXT_TELEMETRY_DISABLED: "1", PORT: port };
if (!process.env.UPSTREAM_BASE_URL) {
  const demoArgs = ["lib/demo-upstream/cli.ts", "--port", demoPort];
  if (process.env.DEMO_UPSTREAM_SEED) demoArgs.push("--seed", process.env.DEMO_UPSTREAM_SEED);
  if (process.env.DEMO_UPSTREAM_SCALE) demoArgs.push("--scale", process.env.DEMO_UPSTREAM_SCALE);
  if (process.env.DEMO_UPSTREAM_CONTROL === "1") demoArgs.push("--control");
  if (process.env.DEMO_UPSTREAM_ODD === "1") demoArgs.push("--odd");
  const demo = run(tsxBin, demoArgs);
  await pipeOutput(demo, "demo upstream", /listening on/);
  env.UPSTREAM_BASE_URL = `http://127.0.0.1:${demoPort}/v1`;
  env.DEMO_MODE = "1";
}

const dashboard = run(serverScript, dev ? ["--dev"] : [], env);
pipeOutput(dashboard, "dashboard");
await waitForHttp(`http://localhost:${port}/sign-in`, 120_000);
console.log(`\nDashboard ready: http://localhost:${port}`);
console.log(`Upstream: ${env.UPSTREAM_BASE_URL ?? process.env.UPSTREAM_BASE_URL}${env.DEMO_MODE ? " (demo)" : ""}`);
if (env.DEMO_MODE) printDemoKeys();
