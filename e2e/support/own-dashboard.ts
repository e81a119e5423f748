import { spawn } from "node:child_process";
import { createServer } from "node:net";

/**
 * A production dashboard (the current release, as `npm run start:prod` runs it) for a journey that
 * needs settings the suite's own servers do not have (an SMTP server). Its port is one the system
 * hands out (from the ephemeral range), so it never takes a port of the suite.
 */
export interface OwnDashboard {
  origin: string;
  stop(): Promise<void>;
}

async function ephemeralPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function startOwnDashboard(env: Record<string, string>): Promise<OwnDashboard> {
  const port = await ephemeralPort();
  const child = spawn(process.execPath, ["scripts/serve.mjs"], {
    cwd: process.cwd(),
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the dashboard did not start within 60 s:\n${output}`)), 60_000);
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (/Listening on/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", collect);
    child.stderr!.on("data", collect);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`the dashboard exited before it listened:\n${output}`));
    });
  });
  return {
    origin: `http://localhost:${port}`,
    // SIGTERM: the server stops its own children and exits after its grace.
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const killed = setTimeout(() => child.kill("SIGKILL"), 30_000);
      await exited;
      clearTimeout(killed);
    },
  };
}
