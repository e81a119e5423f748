import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startDemoUpstream, type DemoUpstream } from "@/demo-upstream/server";
import { openDatabase } from "@/server/db/database";
import { migrationVersions } from "@/server/db/migrate";
import { newLocation } from "@/test/databases";
import { copyOfTemplate } from "@/test/pglite-template";
import { ensureBuild, freePort, runNode, SERVE, type RunningScript } from "@/test/processes";

/**
 * What the production server does with a configuration or a database it cannot use: it stops
 * before listening, with exit code 1 and one line naming the setting and the cause (host and
 * database, never a password), instead of serving 500s behind a green "ready".
 */
const SECRET = "startup-test-secret-".padEnd(48, "x");
const postgresUrl = process.env.TEST_DATABASE_URL;

let upstream: DemoUpstream;
const running: RunningScript[] = [];
const dirs: string[] = [];

beforeAll(async () => {
  ensureBuild();
  upstream = await startDemoUpstream({ port: 0 });
}, 600_000);
afterAll(async () => {
  await upstream.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((script) => script.kill()));
});

function tempDir(name: string): string {
  const dir = join(tmpdir(), `dash-startup-${process.pid}-${name}-${Date.now()}`);
  dirs.push(dir);
  return dir;
}

async function server(env: Record<string, string>) {
  const port = await freePort();
  const script = runNode(SERVE, {
    PORT: String(port),
    UPSTREAM_BASE_URL: upstream.baseUrl,
    SESSION_SECRET: SECRET,
    ...env,
  });
  running.push(script);
  return { script, port };
}

/** Starts a server that must refuse: its exit code and its output, line by line. */
async function refusal(env: Record<string, string>) {
  const { script } = await server(env);
  const code = await script.exited;
  return { code, lines: script.output().trim().split("\n").filter(Boolean) };
}

const onlyLine = (lines: string[]) => lines.filter((line) => !/Running next\.config/.test(line));

describe("a server that cannot start says why in one line, exits 1 and never listens", () => {
  it.each([
    [{ AUDIT_RETENTION_DAYS: "30d", EMBEDDED_DATABASE: "1" }, /^Configuration error: AUDIT_RETENTION_DAYS must be a whole number/],
    [{ APP_ORIGIN: "dashboard.example.com", EMBEDDED_DATABASE: "1" }, /^Configuration error: APP_ORIGIN must be an http\(s\) URL/],
    [{ DATABASE_URL: "not a url" }, /^Configuration error: DATABASE_URL must be a PostgreSQL URL/],
    [{}, /^Configuration error: DATABASE_URL is not set: .*several instances.*EMBEDDED_DATABASE=1/],
  ])("settings %o", async (env, expected) => {
    const { code, lines } = await refusal(env);
    expect(code).toBe(1);
    expect(onlyLine(lines)).toEqual([expect.stringMatching(expected)]);
  });

  it("a DATA_DIR that is a file, or under /proc (where Node's own mkdir would spin forever)", async () => {
    const file = tempDir("file");
    writeFileSync(file, "not a directory");
    for (const [dataDir, reason] of [
      [file, /it is a file, not a directory/],
      ["/proc/dashboard-data", /it cannot be created \(ENOENT\); set DATA_DIR to a folder this user can write/],
    ] as const) {
      const started = performance.now();
      const { code, lines } = await refusal({ EMBEDDED_DATABASE: "1", DATA_DIR: dataDir });
      expect(code, dataDir).toBe(1);
      expect(onlyLine(lines), dataDir).toEqual([expect.stringMatching(new RegExp(`^Database error: DATA_DIR ${dataDir} cannot hold`))]);
      expect(onlyLine(lines)[0], dataDir).toMatch(reason);
      expect(performance.now() - started, dataDir).toBeLessThan(30_000);
    }
  });

  it("alert rules that call webhooks, in production without APP_ORIGIN to link back to", async () => {
    const dataDir = copyOfTemplate();
    dirs.push(dataDir);
    const db = await openDatabase({ dataDir });
    await db.query(
      `insert into alert_rules (id, organization_id, store_url, definition, webhook_secret, created_by_email, created_at, updated_at)
       values ('rule_startup', 'org_1', 'https://shop.example', '{"webhookUrl":"https://hooks.example.com/x"}', 's', 'a@example.com', now(), now())`,
    );
    await db.close();
    const { code, lines } = await refusal({ EMBEDDED_DATABASE: "1", DATA_DIR: dataDir });
    expect(code).toBe(1);
    expect(onlyLine(lines)).toEqual([
      expect.stringMatching(/^Configuration error: APP_ORIGIN is required in production when alert rules call webhooks \(1 do\)/),
    ]);
    const { script } = await server({ EMBEDDED_DATABASE: "1", DATA_DIR: dataDir, APP_ORIGIN: "https://dashboard.example.com" });
    await script.waitFor(/Listening on/);
  }, 90_000);

  it("a database a newer build migrated, with a migration that does not say this build keeps working", async () => {
    // Recorded with no judgement of older builds: this build cannot tell that it keeps working, so it refuses.
    const dataDir = copyOfTemplate();
    dirs.push(dataDir);
    const db = await openDatabase({ dataDir });
    const newest = migrationVersions().at(-1)!;
    await db.query("insert into schema_migrations (version) values ('9999_future_contract')");
    await db.close();
    const { code, lines } = await refusal({ EMBEDDED_DATABASE: "1", DATA_DIR: dataDir });
    expect(code).toBe(1);
    expect(onlyLine(lines)).toEqual([
      `Database error: the database is at 9999_future_contract, this build knows up to ${newest}: start the newer build, or restore the backup taken before migrating`,
    ]);
    // A newer migration that names this build as still working: it starts, and readiness says the schema is ahead.
    const again = await openDatabase({ dataDir, migrate: false });
    await again.query("update schema_migrations set oldest_build = $1 where version = '9999_future_contract'", [newest]);
    await again.close();
    const { script, port } = await server({ EMBEDDED_DATABASE: "1", DATA_DIR: dataDir });
    await script.waitFor(/Listening on/);
    const ready = await fetch(`http://localhost:${port}/api/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: "ok", schema: { expected: newest, applied: "9999_future_contract" } });
  }, 90_000);

  it("a DATA_DIR holding files the embedded database cannot open", async () => {
    const dataDir = tempDir("corrupt");
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, "PG_VERSION"), "garbage\n");
    const { code, lines } = await refusal({ EMBEDDED_DATABASE: "1", DATA_DIR: dataDir });
    expect(code).toBe(1);
    expect(onlyLine(lines)).toEqual([
      expect.stringMatching(/^Database error: DATA_DIR .* cannot hold the embedded database: its files cannot be opened/),
    ]);
  });

  it("a second process on the same DATA_DIR, naming the folder and the pid that holds it", async () => {
    const dataDir = copyOfTemplate();
    dirs.push(dataDir);
    const first = await server({ EMBEDDED_DATABASE: "1", DATA_DIR: dataDir });
    await first.script.waitFor(/Listening on/);
    const { code, lines } = await refusal({ EMBEDDED_DATABASE: "1", DATA_DIR: dataDir });
    expect(code).toBe(1);
    expect(onlyLine(lines)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Database error: DATA_DIR ${dataDir} is in use by process ${first.script.child.pid}: the embedded database serves one process`,
        ),
      ),
    ]);
    // The first one still serves, and once it has stopped the folder is free again.
    expect((await fetch(`http://localhost:${first.port}/api/health`)).status).toBe(200);
    first.script.child.kill("SIGTERM");
    expect(await first.script.exited).toBe(0);
    const next = await server({ EMBEDDED_DATABASE: "1", DATA_DIR: dataDir });
    await next.script.waitFor(/Listening on/);
  });

  it("a lock left by a process killed with -9 is taken over", async () => {
    const dataDir = copyOfTemplate();
    dirs.push(dataDir);
    const first = await server({ EMBEDDED_DATABASE: "1", DATA_DIR: dataDir });
    await first.script.waitFor(/Listening on/);
    await first.script.kill();
    const next = await server({ EMBEDDED_DATABASE: "1", DATA_DIR: dataDir });
    await next.script.waitFor(/Listening on/);
  });

  describe.runIf(postgresUrl)("PostgreSQL", () => {
    // The table is built even when the suite is skipped (no PostgreSQL to test against).
    const url = (changes: (url: URL) => void) => {
      if (!postgresUrl) return "";
      const changed = new URL(postgresUrl);
      changes(changed);
      return changed.toString();
    };

    it.each([
      ["an unknown database", url((u) => (u.pathname = "/no_such_database_here")), /the database does not exist/],
      [
        "an unknown role, with a password",
        url((u) => ((u.username = "no_such_role"), (u.password = "hunter2-secret"))),
        /refused the user or password/,
      ],
      ["nothing listening", url((u) => (u.port = "1")), /connection refused/],
      ["an unknown host", url((u) => (u.hostname = "no-such-host.invalid")), /cannot be found/],
    ])("%s", async (_name, databaseUrl, cause) => {
      const { code, lines } = await refusal({ DATABASE_URL: databaseUrl, DATABASE_CONNECT_TIMEOUT_MS: "3000" });
      expect(code).toBe(1);
      const [line, ...rest] = onlyLine(lines);
      expect(rest).toEqual([]);
      expect(line).toMatch(/^Database error: DATABASE_URL \(\S+@\S+:\d+\/\S+\) cannot be used: /);
      expect(line).toMatch(cause);
      expect(line).not.toContain("hunter2");
    });
  });
});

describe("a server that can start", () => {
  it("on the embedded database by choice (EMBEDDED_DATABASE=1), says so in its health", async () => {
    const dataDir = copyOfTemplate();
    dirs.push(dataDir);
    const { script, port } = await server({ EMBEDDED_DATABASE: "1", DATA_DIR: dataDir });
    await script.waitFor(/Listening on/);
    const health = await fetch(`http://localhost:${port}/api/health`);
    expect(await health.json()).toMatchObject({ status: "ok", database: "ok", databaseKind: "embedded (PGlite, this instance only)" });
  });

  it.runIf(postgresUrl)(
    "stops being ready when a newer build applies a migration that does not keep it working",
    async () => {
      const location = await newLocation("postgres");
      try {
        const { script, port } = await server({ DATABASE_URL: location.url! });
        await script.waitFor(/Listening on/);
        const ready = () => fetch(`http://localhost:${port}/api/health/ready`);
        expect((await ready()).status).toBe(200);
        const db = await location.open();
        await db.query("insert into schema_migrations (version, oldest_build) values ('9999_future_contract', '9999_future_contract')");
        await db.close();
        const answer = await ready();
        expect(answer.status).toBe(503);
        expect(await answer.json()).toMatchObject({
          status: "schema_too_new",
          schema: {
            applied: "9999_future_contract",
            problem: expect.stringMatching(/^the database is at 9999_future_contract, this build knows up to /),
          },
        });
      } finally {
        await Promise.all(running.splice(0).map((script) => script.kill()));
        await location.drop();
      }
    },
    90_000,
  );
});
