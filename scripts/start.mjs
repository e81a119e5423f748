#!/usr/bin/env node
// Starts the dashboard: checks the settings and ports, builds when the sources changed since the
// last build, starts the demo upstream unless UPSTREAM_BASE_URL is set, then serves the dashboard.
// SIGTERM, SIGINT (Ctrl-C) or SIGHUP is passed on to both, which stop gracefully; this process
// exits 0 once they have. A second signal, a second or more later, makes the dashboard stop at once.
import { spawn, spawnSync } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { buildIsCurrent } from "./build.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const dev = process.argv.includes("--dev");
/** Running children by label, oldest first. */
const children = new Map();
let stopping = false;
let exitCode = 0;
let stopSignal = "SIGTERM";

function fail(message) {
  console.error(message);
  process.exit(1);
}

function portSetting(name, fallback) {
  const raw = process.env[name] || fallback;
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port < 1 || port > 65_535) fail(`${name} must be a port number from 1 to 65535, got "${raw}".`);
  return port;
}

/** The same rule as the dashboard's own check, applied before anything starts. */
function checkUpstreamBaseUrl(raw) {
  let url;
  try {
    url = new URL(raw);
  } catch {
    // Reported below.
  }
  if (!url || !/^https?:$/.test(url.protocol) || !/\/v1\/?$/.test(url.pathname)) {
    fail(`UPSTREAM_BASE_URL must be an http(s) URL ending in /v1 (for example https://api.example.com/v1), got "${raw}".`);
  }
}

function portIsFree(port, host) {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

async function checkPortFree(name, port, host) {
  if (!(await portIsFree(port, host)))
    fail(`${name} ${port} is already in use: stop what listens there, or choose another port (${name}=${port + 1}).`);
}

/**
 * Stops the children, newest first (the dashboard drains its requests while the demo upstream
 * still answers them), and exits once all have exited. A second call signals all at once.
 */
function stop(code, signal = "SIGTERM") {
  const again = stopping;
  if (!stopping) exitCode = code;
  stopping = true;
  stopSignal = signal;
  if (children.size === 0) process.exit(exitCode);
  const running = [...children.values()];
  for (const child of again ? running : running.slice(-1)) child.kill(signal);
  if (again) return;
  // Past the dashboard's grace period and shutdown hooks, whatever is left is killed.
  const graceMs = Number(process.env.SHUTDOWN_GRACE_MS) || 10_000;
  setTimeout(() => {
    for (const child of children.values()) child.kill("SIGKILL");
  }, graceMs + 30_000).unref();
}

let signalledAt = 0;

function onSignal(signal) {
  // Within a second it is the same request delivered twice (Ctrl-C reaches the whole group, and npm passes it on).
  if (stopping && Date.now() - signalledAt < 1_000) return;
  signalledAt = Date.now();
  stop(0, signal);
}

/**
 * Runs a node script as a child, in this process's group: whatever stops the group (Ctrl-C, a
 * test runner's kill) reaches the children too. A server child that exits on its own stops everything.
 */
function run(label, args, { env = {}, server = true } = {}) {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: server ? ["ignore", "pipe", "inherit"] : "inherit",
  });
  children.set(label, child);
  child.on("exit", (code, signal) => {
    children.delete(label);
    if (stopping) {
      if (children.size === 0) process.exit(exitCode);
      [...children.values()].at(-1).kill(stopSignal);
    } else if (server) {
      console.error(`The ${label} stopped (${signal ?? `exit code ${code}`}); stopping.`);
      stop(code ?? 1);
    }
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

async function waitForHttp(url) {
  while (!stopping) {
    try {
      await fetch(url, { redirect: "manual" });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** Resolves with the child's exit code. */
const exited = (child) => new Promise((resolve) => child.once("exit", (code) => resolve(code ?? 1)));

function printDemoKeys() {
  const describeArgs = ["lib/demo-upstream/cli.ts", "--describe", ...(process.env.DEMO_UPSTREAM_ODD === "1" ? ["--odd"] : [])];
  const described = spawnSync(process.execPath, ["--import", "tsx", ...describeArgs], { cwd: root, encoding: "utf8" });
  if (described.status !== 0) return;
  const { keys } = JSON.parse(described.stdout);
  console.log("\nDemo keys (pick one on the sign-in page, or paste it):");
  for (const key of keys) console.log(`  ${key.key.padEnd(40)} ${key.state.padEnd(8)} ${key.label}`);
}

async function main() {
  const port = portSetting("PORT", "3000");
  const demoPort = portSetting("DEMO_UPSTREAM_PORT", "4010");
  const upstreamBaseUrl = process.env.UPSTREAM_BASE_URL;
  if (upstreamBaseUrl) checkUpstreamBaseUrl(upstreamBaseUrl);
  await checkPortFree("PORT", port);
  if (!upstreamBaseUrl) await checkPortFree("DEMO_UPSTREAM_PORT", demoPort, "127.0.0.1");

  process.on("SIGINT", () => onSignal("SIGINT"));
  process.on("SIGTERM", () => onSignal("SIGTERM"));
  process.on("SIGHUP", () => onSignal("SIGTERM"));

  if (!dev && !buildIsCurrent(root)) {
    console.log("Building the dashboard (first start, or sources changed)…");
    const status = await exited(run("build", [join(root, "scripts/build.mjs"), "--if-stale"], { server: false }));
    if (stopping) return;
    if (status !== 0) process.exit(status);
  }

  const env = { NEXT_TELEMETRY_DISABLED: "1", PORT: String(port) };
  if (!upstreamBaseUrl) {
    // `node --import tsx` rather than the tsx CLI, so that signals reach the server itself.
    const demoArgs = ["--import", "tsx", "lib/demo-upstream/cli.ts", "--port", String(demoPort)];
    if (process.env.DEMO_UPSTREAM_SEED) demoArgs.push("--seed", process.env.DEMO_UPSTREAM_SEED);
    if (process.env.DEMO_UPSTREAM_SCALE) demoArgs.push("--scale", process.env.DEMO_UPSTREAM_SCALE);
    if (process.env.DEMO_UPSTREAM_CONTROL === "1") demoArgs.push("--control");
    if (process.env.DEMO_UPSTREAM_ODD === "1") demoArgs.push("--odd");
    const demo = run("demo upstream", demoArgs);
    await pipeOutput(demo, "demo upstream", /listening on/);
    if (stopping) return;
    env.UPSTREAM_BASE_URL = `http://127.0.0.1:${demoPort}/v1`;
    env.DEMO_MODE = "1";
  }

  const dashboard = run("dashboard", [join(root, "scripts/server.mjs"), ...(dev ? ["--dev"] : [])], { env });
  pipeOutput(dashboard, "dashboard");
  await waitForHttp(`http://localhost:${port}/sign-in`);
  if (stopping) return;
  console.log(`\nDashboard ready: http://localhost:${port}`);
  console.log(`Upstream: ${env.UPSTREAM_BASE_URL ?? upstreamBaseUrl}${env.DEMO_MODE ? " (demo)" : ""}`);
  if (env.DEMO_MODE) printDemoKeys();
}

await main();
