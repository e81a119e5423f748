/** Real processes for the tests of the scripts: ports, spawning, and making sure nothing is left running. */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:net";
import { fileURLToPath } from "node:url";
import { isRunning } from "@/server/runtime/pid-file.mjs";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Set by test/database-setup.ts for the test process itself; never passed on to the processes it starts. */
export const TEST_PROCESS_ONLY = ["DATA_DIR", "UPSTREAM_BASE_URL"] as const;

function listen(server: Server, port: number, host?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen({ port, host, exclusive: true }, () => resolve());
  });
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/** A port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await listen(server, 0);
  const { port } = server.address() as { port: number };
  await close(server);
  return port;
}

/** Listens on a port, as another program would; `release` frees it. */
export async function holdPort(host?: string): Promise<{ port: number; release: () => Promise<void> }> {
  const server = createServer();
  await listen(server, 0, host);
  return { port: (server.address() as { port: number }).port, release: () => close(server) };
}

export async function portIsFree(port: number, host?: string): Promise<boolean> {
  const server = createServer();
  try {
    await listen(server, port, host);
    await close(server);
    return true;
  } catch {
    return false;
  }
}

/** Polls `check` until it holds or `timeoutMs` passes; returns its last answer. */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<boolean> {
  for (const deadline = Date.now() + timeoutMs; ; await new Promise((resolve) => setTimeout(resolve, 50))) {
    if ((await check()) || Date.now() > deadline) return check();
  }
}

/** Every running process descended from `pid`. */
export function descendantsOf(pid: number): number[] {
  const table = spawnSync("ps", ["-e", "-o", "pid=,ppid="], { encoding: "utf8" }).stdout;
  const parents = table
    .trim()
    .split("\n")
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  for (let frontier = [pid]; frontier.length > 0;) {
    frontier = parents.filter(([, parent]) => frontier.includes(parent)).map(([child]) => child);
    found.push(...frontier);
  }
  return found.filter(isRunning);
}

export interface RunningScript {
  child: ChildProcess;
  /** stdout and stderr so far. */
  output: () => string;
  waitFor: (pattern: RegExp, timeoutMs?: number) => Promise<RegExpExecArray>;
  exited: Promise<number | null>;
  /** Kills the process and everything it started, if still running. */
  kill: () => Promise<void>;
}

/**
 * The environment of a process a test starts: the test process's own, without what the test
 * setup gave this process alone (its database folder, a placeholder upstream), plus `env`.
 */
export function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const inherited: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
  for (const name of TEST_PROCESS_ONLY) delete inherited[name];
  return { ...inherited, ...env };
}

/**
 * Runs `node <args>` in the checkout (or in `cwd`, another checkout), collecting its output;
 * `detached` gives it a process group of its own, as a terminal would.
 */
export function runNode(args: string[], env: Record<string, string>, { detached = false, cwd = ROOT } = {}): RunningScript {
  const child = spawn(process.execPath, args, {
    cwd,
    env: childEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
    detached,
  });
  let output = "";
  const listeners = new Set<() => void>();
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout!.on("data", collect);
  child.stderr!.on("data", collect);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let started: number[] = [];

  const waitFor = (pattern: RegExp, timeoutMs = 60_000) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(output);
        if (!match) return;
        listeners.delete(check);
        clearTimeout(timer);
        started = descendantsOf(child.pid!);
        resolve(match);
      };
      const timer = setTimeout(() => {
        listeners.delete(check);
        reject(new Error(`no ${pattern} within ${timeoutMs} ms; output:\n${output}`));
      }, timeoutMs);
      listeners.add(check);
      check();
      void exited.then(() => {
        if (listeners.delete(check)) {
          clearTimeout(timer);
          reject(new Error(`exited before ${pattern}; output:\n${output}`));
        }
      });
    });

  const kill = async () => {
    const all = [...new Set([...started, ...(child.exitCode === null ? descendantsOf(child.pid!) : [])])];
    for (const pid of all.filter(isRunning)) process.kill(pid, "SIGKILL");
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGKILL");
      await exited;
    }
  };
  return { child, output: () => output, waitFor, exited, kill };
}

/** The production server, as `npm run start:prod` runs it (the current release). */
export const SERVE = ["scripts/serve.mjs"];
/** `npm start`: builds when needed, then the demo upstream and the dashboard. */
export const START = ["--conditions=react-server", "--import", "tsx", "scripts/start.ts"];

/** Builds the dashboard unless the current release matches the sources (as `npm start` decides). */
export function ensureBuild(): void {
  const build = spawnSync(process.execPath, ["scripts/build.mjs", "--if-stale"], {
    cwd: ROOT,
    encoding: "utf8",
    env: childEnv({}),
  });
  if (build.status !== 0) throw new Error(`the build failed:\n${build.stdout}\n${build.stderr}`);
}
