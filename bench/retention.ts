/**
 * The daily retention purge on a year of data: a new PostgreSQL database, seeded and purged by
 * bench/retention-run.ts in a process with the server's module conditions (as check-config runs).
 */
import { spawn } from "node:child_process";
import pg from "pg";
import { ROOT } from "./processes";

export async function benchRetention(): Promise<void> {
  const server = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  const name = `dash_bench_retention_${Date.now()}`;
  await admin.query(`create database ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  try {
    const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "bench/retention-run.ts"], {
      cwd: ROOT,
      stdio: "inherit",
      env: { ...process.env, DATABASE_URL: url.toString(), EMBEDDED_DATABASE: "" },
    });
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    if (code !== 0) throw new Error(`the retention bench exited with ${code}`);
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}
