/**
 * The image recipe (Containerfile) and the compose file, without a container engine: the recipe
 * parses, copies only files the tree has, and its runtime stage, run step by step as a script
 * (its paths mapped into a folder) and then started as an unprivileged user on that read-only
 * copy, serves and passes its own HEALTHCHECK. compose.yaml's instances pass check-config.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDemoUpstream, type DemoUpstream } from "@/demo-upstream/server";
import { ADMIN_KEY } from "@/test/harness";
import { childEnv, ensureBuild, freePort, ROOT } from "@/test/processes";

const KNOWN = new Set(["FROM", "WORKDIR", "ENV", "COPY", "RUN", "USER", "EXPOSE", "VOLUME", "HEALTHCHECK", "CMD", "ARG", "LABEL"]);
const UIDS: Record<string, number> = { node: 1000 };

interface Instruction {
  name: string;
  args: string;
}

/** The recipe's instructions, stage by stage (continuation lines joined, comments left out). */
function parseRecipe(text: string): Map<string, Instruction[]> {
  const stages = new Map<string, Instruction[]>();
  let current: Instruction[] | undefined;
  const lines = text.replace(/\\\n/g, " ").split("\n");
  for (const line of lines.map((l) => l.trim()).filter((l) => l && !l.startsWith("#"))) {
    const [, name, args] = /^(\S+)\s+(.*)$/.exec(line) ?? [];
    if (!name || !KNOWN.has(name)) throw new Error(`unknown instruction: ${line}`);
    if (name === "FROM") {
      const stage = /\bAS\s+(\S+)$/i.exec(args!)?.[1];
      if (!stage) throw new Error(`every stage is named: ${line}`);
      stages.set(stage, (current = []));
    } else if (!current) throw new Error(`${name} before FROM`);
    else current.push({ name, args: args! });
  }
  return stages;
}

const recipe = parseRecipe(readFileSync(join(ROOT, "Containerfile"), "utf8"));
const runtime = recipe.get("runtime")!;
const build = recipe.get("build")!;
const all = (stage: Instruction[], name: string) => stage.filter((instruction) => instruction.name === name).map((i) => i.args);
const envOf = (stage: Instruction[]) =>
  Object.fromEntries(all(stage, "ENV").flatMap((args) => args.split(/\s+/).map((pair) => pair.split("=") as [string, string])));

describe("the Containerfile", () => {
  it("builds with every dependency, then runs on production dependencies as a non-root user", () => {
    expect([...recipe.keys()]).toEqual(["build", "runtime"]);
    expect(all(build, "RUN")).toContain("npm ci --no-audit --no-fund");
    expect(all(build, "RUN")).toContain("npm run build");
    expect(all(runtime, "RUN")).toContain("npm ci --omit=dev --no-audit --no-fund");
    expect(all(runtime, "USER")).toEqual(["node"]);
    expect(envOf(runtime)).toMatchObject({ HOST: "0.0.0.0", NODE_ENV: "production", DATA_DIR: all(runtime, "VOLUME")[0] });
    expect(all(runtime, "HEALTHCHECK")[0]).toContain("/api/health/live");
  });

  it("copies only what the tree has, and nothing .dockerignore leaves out", () => {
    const ignored = readFileSync(join(ROOT, ".dockerignore"), "utf8").trim().split("\n");
    const sources = [...build, ...runtime]
      .filter((i) => i.name === "COPY" && !i.args.startsWith("--from"))
      .flatMap((i) => i.args.split(/\s+/).slice(0, -1))
      .filter((source) => source !== ".");
    expect(sources.length).toBeGreaterThan(3);
    for (const source of sources) {
      expect(existsSync(join(ROOT, source)), source).toBe(true);
      expect(
        ignored.some((pattern) => source === pattern || source.startsWith(`${pattern}/`)),
        source,
      ).toBe(false);
    }
  });
});

const asRoot = process.getuid?.() === 0;

describe.skipIf(!asRoot)("the runtime stage, run as a script", () => {
  const image = mkdtempSync(join(tmpdir(), "dash-image-"));
  // As an image's root is: readable and searchable by every user.
  chmodSync(image, 0o755);
  /** Paths of the image, mapped into the folder. */
  const mapped = (path: string) => join(image, path);
  let upstream: DemoUpstream;

  beforeAll(async () => {
    ensureBuild();
    upstream = await startDemoUpstream({ port: 0 });
  }, 600_000);

  afterAll(async () => {
    await upstream?.close();
    rmSync(image, { recursive: true, force: true });
  }, 120_000);

  it("assembles the image, starts it as its user on a read-only copy, and passes its HEALTHCHECK", async () => {
    let workdir = image;
    let user = 0;
    const env: Record<string, string> = {};
    for (const { name, args } of runtime) {
      if (name === "WORKDIR") mkdirSync((workdir = mapped(args)), { recursive: true });
      if (name === "ENV") Object.assign(env, envOf([{ name, args }]));
      if (name === "USER") user = UIDS[args] ?? Number(args);
      if (name === "COPY") {
        const parts = args.split(/\s+/);
        const from = parts[0]!.startsWith("--from=") ? parts.shift() : undefined;
        const target = parts.pop()!;
        for (const source of parts) {
          // The build stage's /app is this checkout once built.
          const origin = from ? realpathSync(join(ROOT, source.replace(/^\/app\//, ""))) : join(ROOT, source);
          const into = target.endsWith("/") && !from ? join(workdir, target, source.split("/").pop()!) : join(workdir, target);
          cpSync(origin, into, { recursive: true, verbatimSymlinks: true });
        }
      }
      if (name === "RUN") {
        const command = args.replaceAll("/var/lib/dashboard", mapped("/var/lib/dashboard"));
        execFileSync("sh", ["-c", command.replace(/^npm ci /, "npm ci --prefer-offline ")], {
          cwd: workdir,
          stdio: "pipe",
          timeout: 400_000,
        });
      }
    }
    expect(user).toBe(1000);
    const volume = mapped(all(runtime, "VOLUME")[0]!);
    const port = await freePort();
    const runEnv = childEnv({
      ...env,
      DATA_DIR: volume,
      PORT: String(port),
      UPSTREAM_BASE_URL: upstream.baseUrl,
      SESSION_SECRET: "container-test-secret-".padEnd(48, "x"),
      EMBEDDED_DATABASE: "1",
    });
    const asUser = (argv: string[]) => ["setpriv", `--reuid=${user}`, `--regid=${user}`, "--clear-groups", ...argv];
    const [command, ...rest] = asUser(JSON.parse(all(runtime, "CMD")[0]!) as string[]);
    const server = spawn(command!, rest, { cwd: workdir, env: runEnv });
    let output = "";
    server.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    server.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    try {
      for (const deadline = Date.now() + 120_000; !/Listening on/.test(output); await new Promise((r) => setTimeout(r, 200))) {
        if (Date.now() > deadline || server.exitCode !== null) throw new Error(`the image did not start:\n${output}`);
      }
      const healthcheck = JSON.parse(all(runtime, "HEALTHCHECK")[0]!.replace(/^.*?CMD\s+/, "")) as string[];
      const [probe, ...probeArgs] = asUser(healthcheck);
      expect(spawnSync(probe!, probeArgs, { cwd: workdir, env: runEnv, timeout: 30_000 }).status).toBe(0);
      const origin = `http://127.0.0.1:${port}`;
      const signIn = await fetch(`${origin}/api/session`, {
        method: "POST",
        headers: { origin, "content-type": "application/json" },
        body: JSON.stringify({ apiKey: ADMIN_KEY }),
      });
      expect(signIn.status).toBe(200);
    } finally {
      server.kill("SIGTERM");
      await new Promise((resolve) => (server.exitCode !== null ? resolve(null) : server.once("exit", resolve)));
    }
    expect(output).not.toMatch(/EACCES|EROFS|permission denied/i);
    // The user wrote only into the volume: nothing in the image belongs to it.
    const owned = spawnSync("find", [image, "-uid", String(user), "-not", "-path", `${volume}*`], { encoding: "utf8" }).stdout.trim();
    expect(owned).toBe("");
  }, 600_000);
});

describe("compose.yaml", () => {
  const compose = JSON.parse(
    readFileSync(join(ROOT, "compose.yaml"), "utf8")
      .split("\n")
      .filter((line) => !line.startsWith("#"))
      .join("\n"),
  ) as { services: Record<string, { environment?: Record<string, string>; volumes?: string[]; network_mode?: string }> };
  const instances = Object.entries(compose.services).filter(([name]) => name.startsWith("dashboard-"));
  const nginxConf = readFileSync(join(ROOT, "deploy/nginx.conf"), "utf8");

  it("runs two instances on the ports deploy/nginx.conf balances, sharing nginx's network, with PostgreSQL and SMTP", () => {
    expect(instances).toHaveLength(2);
    expect(compose.services.nginx!.volumes).toContain("./deploy/nginx.conf:/etc/nginx/nginx.conf:ro");
    const upstreamPorts = [...nginxConf.matchAll(/server 127\.0\.0\.1:(\d+)/g)].map((match) => match[1]);
    expect(instances.map(([, service]) => service.environment!.PORT)).toEqual(upstreamPorts);
    for (const [, service] of instances) {
      expect(service.network_mode).toBe("service:nginx");
      expect(service.environment!.DATABASE_URL).toMatch(/@db:5432\//);
      expect(service.environment!.SMTP_URL).toMatch(/^smtp:\/\/mail:/);
    }
  });

  it.each(instances.map(([name, service]) => [name, service.environment!] as const))(
    "gives %s settings check-config accepts",
    (_, environment) => {
      const result = spawnSync(
        process.execPath,
        ["--conditions=react-server", "--import", "tsx", "server/cli/check-config.ts", "--offline"],
        { cwd: ROOT, env: childEnv({ NODE_ENV: "production", ...environment }), encoding: "utf8", timeout: 60_000 },
      );
      expect(result.stderr).toBe("");
      expect(result.status).toBe(0);
    },
  );

  it("runs the application as its database's owner, not a superuser nor a role maker", () => {
    const init = readFileSync(join(ROOT, "deploy/postgres-init.sql"), "utf8");
    const db = compose.services.db as { environment: Record<string, string>; volumes: string[] };
    for (const [, service] of instances) expect(new URL(service.environment!.DATABASE_URL!).username).toBe("dashboard");
    expect(db.environment.POSTGRES_USER).not.toBe("dashboard");
    expect(db.volumes).toContain("./deploy/postgres-init.sql:/docker-entrypoint-initdb.d/dashboard.sql:ro");
    expect(init).toMatch(/create role dashboard login password '[^']+' nosuperuser nocreaterole nocreatedb;/);
    expect(init).toMatch(/create database dashboard owner dashboard;/);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    "lets that owner migrate and serve on PostgreSQL, as deploy/postgres-init.sql makes it",
    async () => {
      const { default: pg } = await import("pg");
      const { openDatabase } = await import("@/server/db/database");
      const { applicationDb, inReach } = await import("@/server/db/reach");
      const name = `dash_i32_owner_${Date.now().toString(36)}`;
      const admin = (database: string, sql: string) => {
        const url = new URL(process.env.TEST_DATABASE_URL!);
        url.pathname = `/${database}`;
        const client = new pg.Client({ connectionString: url.toString() });
        return client.connect().then(() => client.query(sql).finally(() => client.end()));
      };
      // The file as the image runs it, with this test's own names (roles and databases are the cluster's).
      const [before, after] = readFileSync(join(ROOT, "deploy/postgres-init.sql"), "utf8")
        .replace(/\bdashboard\b/g, name)
        .split(/^\\connect .*$/m);
      const base = new URL(process.env.TEST_DATABASE_URL!).pathname.slice(1);
      try {
        // Statements in one query run in one transaction, which CREATE DATABASE may not: it goes on its own.
        const createDatabase = new RegExp(`^create database ${name} owner ${name};$`, "m");
        await admin(base, before!.replace(createDatabase, ""));
        await admin(base, createDatabase.exec(before!)![0]);
        await admin(name, after!);
        const url = new URL(process.env.TEST_DATABASE_URL!);
        Object.assign(url, { username: name, password: name, pathname: `/${name}` });
        const owner = await openDatabase({ url: url.toString() });
        try {
          const [role] = await owner.query<{ rolsuper: boolean; rolcreaterole: boolean }>(
            "select rolsuper, rolcreaterole from pg_roles where rolname = current_user",
          );
          expect(role).toEqual({ rolsuper: false, rolcreaterole: false });
          const app = applicationDb(owner);
          await inReach(["owner.example"], () =>
            app.query(
              `insert into notes (id, organization_id, store_url, start_date, end_date, text, author_email, created_at, updated_at)
               values ('note_owner', 'org_1', 'owner.example', '2026-01-01', '2026-01-01', 'x', 'a@example.com', now(), now())`,
            ),
          );
          expect(await owner.query("select * from notes")).toEqual([]);
          expect(await inReach(["owner.example"], () => app.query<{ id: string }>("select id from notes"))).toEqual([{ id: "note_owner" }]);
        } finally {
          await owner.close();
        }
      } finally {
        await admin(base, `drop database if exists ${name} with (force)`);
        await admin(base, `drop role if exists ${name}`);
      }
    },
    120_000,
  );
});
