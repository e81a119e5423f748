/** The operator's commands, run as an init step or CI job would: `check-config` and `migrate`. */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { childEnv, ROOT } from "@/test/processes";

const dataDir = mkdtempSync(join(tmpdir(), "dash-cli-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const production = { UPSTREAM_BASE_URL: "https://api.example.com/v1", SESSION_SECRET: "s".repeat(40) };

function run(cli: string, env: Record<string, string>, args: string[] = []) {
  const result = spawnSync(process.execPath, ["--conditions=react-server", "--import", "tsx", `server/cli/${cli}.ts`, ...args], {
    cwd: ROOT,
    env: childEnv({ NODE_ENV: "", ...env }),
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("check-config", () => {
  it("names each malformed setting and exits 1", () => {
    const result = run("check-config", { ...production, PORT: "http", LOG_LEVEL: "loud" });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Configuration error: PORT must be a whole number from 1 to 65535, got "http".');
    expect(result.stderr).toContain("LOG_LEVEL");
  });

  it("names every rule production breaks, one line each", () => {
    const result = run("check-config", { UPSTREAM_BASE_URL: "https://api.example.com/v1", SHUTDOWN_GRACE_MS: "1000" });
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split("\n");
    expect(lines.every((line) => line.startsWith("Configuration error: "))).toBe(true);
    for (const name of ["SESSION_SECRET", "DATABASE_URL", "SHUTDOWN_GRACE_MS"]) expect(result.stderr).toContain(name);
  });

  it("applies production rules by default and masks secrets", () => {
    const result = run("check-config", { ...production, DATABASE_URL: "postgres://dash:hunter2hunter2@db.internal:5432/dash" }, [
      "--offline",
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Settings are valid (production rules)");
    expect(result.stdout).toContain("postgres://***@db.internal:5432/dash");
    expect(result.stdout).not.toContain("hunter2");
    expect(result.stdout).not.toContain("s".repeat(40));
  });
});

describe("migrate", () => {
  const env = { ...production, EMBEDDED_DATABASE: "1", DATA_DIR: dataDir };

  it("lists pending migrations without applying them (exit 3), applies them, then reports the schema up to date", () => {
    const before = run("migrate", env, ["--status"]);
    expect(before.code).toBe(3);
    expect(before.stdout).toMatch(/^Pending migrations: 0001_initial, /);

    const applied = run("migrate", env);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toMatch(/^Applied 0001_initial, .*; schema at \d{4}_\w+\.\n$/);

    expect(run("migrate", env, ["--status"])).toMatchObject({ code: 0, stdout: "Schema up to date.\n" });
    expect(run("migrate", env).stdout).toMatch(/^Schema up to date at \d{4}_\w+\.\n$/);
  }, 120_000);

  it("refuses a database it cannot use with one line, never the password", () => {
    const result = run("migrate", { ...production, DATABASE_URL: "postgres://nobody:hunter2hunter2@127.0.0.1:1/none" });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^Database error: DATABASE_URL \(nobody@127\.0\.0\.1:1\/none\) cannot be used: .+\n$/);
    expect(result.stderr).not.toContain("hunter2");
  }, 60_000);
});
