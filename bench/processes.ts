/** Starts the servers a benchmark measures as separate processes, each stopped with its whole process group. */
import { spawn, type ChildProcess } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const ADMIN_KEY = "sk_demo_admin_nw_us_5d8e2f41c7a9";
export const US_STORE = "northwind-outfitters.myshopify.com";

export interface RunningProcess {
  child: ChildProcess;
  stop: () => Promise<void>;
}

function stopper(child: ChildProcess) {
  return () =>
    new Promise<void>((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      const kill = (signal: NodeJS.Signals) => {
        try {
          process.kill(-child.pid!, signal);
        } catch {
          // Already gone.
        }
      };
      const timer = setTimeout(() => kill("SIGKILL"), 5_000);
      child.once("exit", () => (clearTimeout(timer), done()));
      kill("SIGTERM");
    });
}

/** The demo upstream CLI; resolves with its base URL once it listens. */
export function startDemoUpstreamProcess(args: string[] = []): Promise<RunningProcess & { baseUrl: string }> {
  // `node --import tsx` rather than the tsx CLI, so that child.pid is the server itself.
  const child = spawn(process.execPath, ["--import", "tsx", "demo-upstream/cli.ts", "--port", "0", ...args], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolveStart, reject) => {
    let out = "";
    child.once("exit", (code) => reject(new Error(`the demo upstream exited early (code ${code})`)));
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match?.[1]) resolveStart({ child, baseUrl: match[1], stop: stopper(child) });
    });
  });
}

/** The production dashboard (built first when stale) in front of `upstreamBaseUrl`. */
export async function startDashboardProcess(
  upstreamBaseUrl: string,
  port: number,
  extraEnv: Record<string, string> = {},
): Promise<RunningProcess & { origin: string }> {
  const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/start.ts"], {
    cwd: ROOT,
    detached: true,
    stdio: "ignore",
    env: {
      ...process.env,
      UPSTREAM_BASE_URL: upstreamBaseUrl,
      PORT: String(port),
      SESSION_SECRET: "bench-secret-".padEnd(48, "x"),
      // One instance on its own embedded database, unless `extraEnv` names PostgreSQL.
      EMBEDDED_DATABASE: "1",
      ...extraEnv,
    },
  });
  const origin = `http://localhost:${port}`;
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the dashboard exited early (code ${child.exitCode})`);
    try {
      await fetch(`${origin}/sign-in`);
      return { child, origin, stop: stopper(child) };
    } catch {
      await new Promise((wait) => setTimeout(wait, 500));
    }
  }
  throw new Error("the dashboard did not start within 300 s");
}

/** Signs in through the dashboard's own route and returns the session cookie. */
export async function signInCookie(origin: string, apiKey = ADMIN_KEY): Promise<string> {
  const response = await fetch(`${origin}/api/session`, {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: JSON.stringify({ apiKey }),
  });
  if (!response.ok) throw new Error(`sign-in failed: ${response.status}`);
  return response.headers.get("set-cookie")!.split(";")[0]!;
}

/**
 * The storage a benchmark runs the dashboard on: an embedded PGlite in a fresh folder, or a
 * fresh database on the PostgreSQL server of BENCH_DATABASE_URL (default: the local one), dropped afterwards.
 */
export interface BenchStorage {
  name: "PGlite" | "PostgreSQL";
  env: Record<string, string>;
  drop: () => Promise<void>;
}

export async function benchStorages(): Promise<BenchStorage[]> {
  const { mkdtempSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const dataDir = mkdtempSync(join(tmpdir(), "dashboard-bench-"));
  const storages: BenchStorage[] = [
    { name: "PGlite", env: { DATA_DIR: dataDir }, drop: async () => rmSync(dataDir, { recursive: true, force: true }) },
  ];
  const server = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const { default: pg } = await import("pg");
  const admin = new pg.Client({ connectionString: server, connectionTimeoutMillis: 3_000 });
  try {
    await admin.connect();
    const name = `${process.env.BENCH_DATABASE_PREFIX ?? "dash_bench"}_${Date.now()}_${process.pid}`;
    await admin.query(`create database ${name}`);
    const url = new URL(server);
    url.pathname = `/${name}`;
    storages.push({
      name: "PostgreSQL",
      env: { DATABASE_URL: url.toString() },
      drop: async () => {
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    });
  } catch (error) {
    console.log(`PostgreSQL not measured (${error instanceof Error ? error.message : String(error)}): set BENCH_DATABASE_URL.`);
    await admin.end().catch(() => undefined);
  }
  return storages;
}
