/**
 * `npm start`: the one command that brings the dashboard up. It checks its settings and ports,
 * builds a release when the sources changed since the last one, starts the demo upstream unless
 * UPSTREAM_BASE_URL is set, then serves the current release (`--dev`: Next.js in development
 * mode, from the sources). SIGTERM, SIGINT (Ctrl-C) or SIGHUP is passed on to both, which stop
 * gracefully; this process exits 0 once they have. A second signal, a second or more later,
 * makes them stop at once. The dashboard's own output (JSON lines) passes through untouched.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { launcherSettings, type LauncherSettings } from "@/server/config/settings";
import { ROOT } from "./releases.mjs";

const TSX = ["--conditions=react-server", "--import", "tsx"];
const dev = process.argv.includes("--dev");
/** Running children by label, oldest first. */
const children = new Map<string, ChildProcess>();
let stopping = false;
let exitCode = 0;
let stopSignal: NodeJS.Signals = "SIGTERM";
let killAfterMs = 120_000;

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

function portIsFree(port: number, host?: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

async function checkPortFree(name: string, port: number, host?: string) {
  if (!(await portIsFree(port, host)))
    fail(`${name} ${port} is already in use: stop what listens there, or choose another port (${name}=${port + 1}).`);
}

/**
 * Stops the children, newest first (the dashboard drains its requests while the demo upstream
 * still answers them), and exits once all have exited. A second call signals all at once.
 */
function stop(code: number, signal: NodeJS.Signals = "SIGTERM") {
  const again = stopping;
  if (!stopping) exitCode = code;
  stopping = true;
  stopSignal = signal;
  if (children.size === 0) process.exit(exitCode);
  const running = [...children.values()];
  for (const child of again ? running : running.slice(-1)) child.kill(signal);
  if (again) return;
  // Past the dashboard's grace period and its shutdown hooks, whatever is left is killed.
  setTimeout(() => {
    for (const child of children.values()) child.kill("SIGKILL");
  }, killAfterMs).unref();
}

let signalledAt = 0;

function onSignal(signal: NodeJS.Signals) {
  // Within a second it is the same request delivered twice (Ctrl-C reaches the whole group, and npm passes it on).
  if (stopping && Date.now() - signalledAt < 1_000) return;
  signalledAt = Date.now();
  stop(0, signal);
}

/**
 * Runs a node program as a child, in this process's group: whatever stops the group (Ctrl-C, a
 * test runner's kill) reaches the children too. A server child that exits on its own stops everything.
 */
function run(
  label: string,
  args: string[],
  { env = {}, server = true, output = "inherit" }: { env?: Record<string, string>; server?: boolean; output?: "inherit" | "pipe" } = {},
) {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", output, "inherit"] });
  children.set(label, child);
  child.on("exit", (code, signal) => {
    children.delete(label);
    if (stopping) {
      if (children.size === 0) process.exit(exitCode);
      [...children.values()].at(-1)!.kill(stopSignal);
    } else if (server) {
      console.error(`The ${label} stopped (${signal ?? `exit code ${code}`}); stopping.`);
      stop(code ?? 1);
    }
  });
  return child;
}

/** Resolves with the child's exit code. */
const exited = (child: ChildProcess) => new Promise<number>((resolve) => child.once("exit", (code) => resolve(code ?? 1)));

/** Echoes the demo upstream's lines under its name; resolves once it listens. */
function demoListening(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      process.stdout.write(`[demo upstream] ${line}\n`);
      if (/listening on/.test(line)) resolve();
    });
  });
}

async function untilLive(url: string): Promise<void> {
  while (!stopping) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The demo upstream's keys, as it describes them (the dashboard offers them on its sign-in page by label). */
function demoKeys(odd: boolean): { key: string; label: string; state: string }[] {
  const described = spawnSync(process.execPath, [...TSX, "demo-upstream/cli.ts", "--describe", ...(odd ? ["--odd"] : [])], {
    cwd: ROOT,
    encoding: "utf8",
  });
  if (described.status !== 0) fail(`The demo upstream could not describe its keys: ${described.stderr}`);
  const keys = (JSON.parse(described.stdout) as { keys: { key: string; label: string; state: string }[] }).keys;
  return keys.map(({ key, label, state }) => ({ key, label, state }));
}

async function startDemo(config: LauncherSettings): Promise<Record<string, string>> {
  const args = [...TSX, "demo-upstream/cli.ts", "--port", String(config.DEMO_UPSTREAM_PORT)];
  if (config.DEMO_UPSTREAM_SEED !== undefined) args.push("--seed", String(config.DEMO_UPSTREAM_SEED));
  if (config.DEMO_UPSTREAM_SCALE !== undefined) args.push("--scale", String(config.DEMO_UPSTREAM_SCALE));
  if (config.DEMO_UPSTREAM_CONTROL) args.push("--control");
  if (config.DEMO_UPSTREAM_ODD) args.push("--odd");
  if (config.DEMO_UPSTREAM_ANOMALIES) args.push("--anomalies", config.DEMO_UPSTREAM_ANOMALIES);
  await demoListening(run("demo upstream", args, { output: "pipe" }));
  const keys = demoKeys(config.DEMO_UPSTREAM_ODD);
  console.log("\nDemo keys (pick one on the sign-in page, or paste it):");
  for (const key of keys) console.log(`  ${key.key.padEnd(40)} ${key.state.padEnd(8)} ${key.label}`);
  return {
    UPSTREAM_BASE_URL: `http://127.0.0.1:${config.DEMO_UPSTREAM_PORT}/v1`,
    DEMO_MODE: "1",
    DEMO_KEYS: JSON.stringify(keys),
  };
}

async function main() {
  const { settings: config, problems } = launcherSettings();
  if (!config) fail(problems.join("\n"));
  if (config.SHUTDOWN_GRACE_MS !== undefined) killAfterMs = config.SHUTDOWN_GRACE_MS + 60_000;
  await checkPortFree("PORT", config.PORT, config.HOST);
  if (!config.UPSTREAM_BASE_URL) await checkPortFree("DEMO_UPSTREAM_PORT", config.DEMO_UPSTREAM_PORT, "127.0.0.1");

  process.on("SIGINT", () => onSignal("SIGINT"));
  process.on("SIGTERM", () => onSignal("SIGTERM"));
  process.on("SIGHUP", () => onSignal("SIGTERM"));

  if (!dev) {
    const status = await exited(run("build", [join(ROOT, "scripts/build.mjs"), "--if-stale"], { server: false }));
    if (stopping) return;
    if (status !== 0) process.exit(status);
  }

  const env: Record<string, string> = { NEXT_TELEMETRY_DISABLED: "1", ...(config.UPSTREAM_BASE_URL ? {} : await startDemo(config)) };
  if (stopping) return;
  run("dashboard", dev ? [...TSX, "server/main.ts", "--dev"] : [join(ROOT, "scripts/serve.mjs")], { env });
  const shown = config.HOST === "127.0.0.1" || config.HOST === "::1" ? "localhost" : config.HOST;
  await untilLive(`http://${config.HOST.includes(":") ? `[${config.HOST}]` : config.HOST}:${config.PORT}/api/health/live`);
  if (stopping) return;
  console.log(`\nDashboard ready: http://${shown}:${config.PORT}`);
  console.log(`Upstream: ${env.UPSTREAM_BASE_URL ?? config.UPSTREAM_BASE_URL}${config.UPSTREAM_BASE_URL ? "" : " (demo)"}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
