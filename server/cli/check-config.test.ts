/** `npm run check-config` as an operator runs it: a real process trying a real database, SMTP server and upstream. */
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { masterKeysFrom, sealApiKey } from "@/server/grants/envelope";
import { lockDataDir } from "@/server/db/data-dir-lock";
import { newLocation, type Location } from "@/test/databases";
import { startMailSink, type MailSink } from "@/test/mail-sink";
import { copyOfTemplate } from "@/test/pglite-template";
import { childEnv, freePort, ROOT } from "@/test/processes";

const KEY_A = "check-config-master-key-a-".padEnd(48, "a");
const KEY_B = "check-config-master-key-b-".padEnd(48, "b");
const backend = process.env.TEST_DATABASE_URL ? "postgres" : "pglite";

let upstream: Server;
let upstreamUrl: string;
let sink: MailSink;
let location: Location;

function checkConfig(
  env: Record<string, string>,
  args: string[] = [],
): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const started = Date.now();
  const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "server/cli/check-config.ts", ...args], {
    cwd: ROOT,
    env: childEnv({ NODE_ENV: "", ...env }),
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr, ms: Date.now() - started })));
}

/** A production environment on the test's database, upstream and SMTP server, changed by `changes`. */
function production(changes: Record<string, string> = {}): Record<string, string> {
  const database: Record<string, string> = location.url
    ? { DATABASE_URL: location.url }
    : { EMBEDDED_DATABASE: "1", DATA_DIR: location.dataDir! };
  return { UPSTREAM_BASE_URL: upstreamUrl, SESSION_SECRET: "s".repeat(40), DELEGATION_KEY: KEY_A, ...database, ...changes };
}

beforeAll(async () => {
  // An upstream that answers as the real one does without a key.
  upstream = createServer((_, response) => response.writeHead(401, { "content-type": "application/json" }).end('{"error":{}}'));
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`;
  sink = await startMailSink();
  location = await newLocation(backend);
  const db = await location.open();
  // One grant in force, sealed under master key A.
  const binding = { grantId: "grant_check_config", organizationId: "org_1", storeUrl: "https://shop.example", keyFingerprint: "fp" };
  const sealed = sealApiKey(binding, "sk_live_granted", masterKeysFrom([KEY_A]));
  await db.query(
    `insert into grants (id, organization_id, store_url, key_fingerprint, owner_email, master_key_id, wrapped_data_key, sealed_api_key, created_at, expires_at,
       seal_version)
     values ('grant_check_config', 'org_1', 'https://shop.example', 'fp', 'owner@example.com', $1, $2, $3, now(), now() + interval '1 day', $4)`,
    [sealed.masterKeyId, sealed.wrappedDataKey, sealed.sealedApiKey, sealed.sealVersion],
  );
  await db.close();
}, 60_000);

afterAll(async () => {
  await new Promise((resolve) => upstream?.close(resolve));
  await sink?.close();
  await location?.drop();
});

describe("check-config reaches what the settings name", () => {
  it("reports the database, its migrations, roles, grants, SMTP and upstream, and exits 0 when all answer", async () => {
    const result = await checkConfig(production({ SMTP_URL: sink.url, APP_ORIGIN: "https://dashboard.example.com" }));
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/database: reached; schema at \d{4}_\w+, 0 pending, 0 ahead of this build/);
    expect(result.stdout).toMatch(/roles and row-level security: /);
    expect(result.stdout).toContain("grants: DELEGATION_KEY opens 1 of 1 grant(s) in force");
    expect(result.stdout).toContain(`grants per master key id: 1 under ${masterKeysFrom([KEY_A])[0]!.id} (held)`);
    expect(result.stdout).toMatch(/smtp: 127\.0\.0\.1:\d+ answered EHLO/);
    expect(result.stdout).toContain(`upstream: ${upstreamUrl} answered (401`);
    // Secrets masked, and EHLO sent nothing.
    expect(result.stdout).toContain("SESSION_SECRET                   *** (1 secret)");
    expect(result.stdout).not.toContain(KEY_A);
    // Settings left unset show their defaults.
    expect(result.stdout).toMatch(/\n  PORT +default: 3000\n/);
    expect(sink.messages).toHaveLength(0);
  }, 90_000);

  it("names the master key id of a grant DELEGATION_KEY cannot open, and exits 1", async () => {
    const [idA] = masterKeysFrom([KEY_A]).map((key) => key.id);
    const result = await checkConfig(production({ DELEGATION_KEY: KEY_B }));
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("grants: DELEGATION_KEY opens 0 of 1 grant(s) in force");
    expect(result.stdout).toContain(`grants per master key id: 1 under ${idA} (MISSING from DELEGATION_KEY)`);
    expect(result.stderr).toBe(
      `Problem: DELEGATION_KEY cannot open 1 grant(s) sealed under master key id ${idA}: add that key back to DELEGATION_KEY, after the newest (the grants are kept until then).\n`,
    );
    // With the old key back after the new one, it opens again.
    expect((await checkConfig(production({ DELEGATION_KEY: `${KEY_B},${KEY_A}` }))).code).toBe(0);
  }, 90_000);

  it("refuses a database at a closed port, an SMTP server at a closed port and a silent upstream, one line each, within seconds", async () => {
    const [dbPort, smtpPort, upstreamPort] = await Promise.all([freePort(), freePort(), freePort()]);
    const result = await checkConfig(
      production({
        DATABASE_URL: `postgres://dash:hunter2hunter2@127.0.0.1:${dbPort}/dash`,
        SMTP_URL: `smtp://mailer:swordfish99@127.0.0.1:${smtpPort}`,
        APP_ORIGIN: "https://dashboard.example.com",
        UPSTREAM_BASE_URL: `http://127.0.0.1:${upstreamPort}/v1`,
      }),
    );
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split("\n");
    expect(lines).toEqual([
      `Problem: DATABASE_URL (dash@127.0.0.1:${dbPort}/dash) cannot be used: nothing accepts connections at dash@127.0.0.1:${dbPort}/dash (connection refused).`,
      `Problem: UPSTREAM_BASE_URL (http://127.0.0.1:${upstreamPort}/v1) does not answer: ECONNREFUSED.`,
      expect.stringMatching(new RegExp(`^Problem: SMTP_URL \\(127\\.0\\.0\\.1:${smtpPort}\\) cannot be used: .*ECONNREFUSED`)),
    ]);
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/hunter2|swordfish/);
    expect(result.ms).toBeLessThan(15_000);
  }, 90_000);

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    "refuses a PostgreSQL user that does not exist, naming it without its password",
    async () => {
      const url = new URL(location.url!);
      url.username = "no_such_dashboard_user";
      url.password = "hunter2hunter2";
      const result = await checkConfig(production({ DATABASE_URL: url.toString() }));
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        /^Problem: DATABASE_URL \(no_such_dashboard_user@[^)]+\) cannot be used: the server refused the user or password/,
      );
      expect(result.stderr).not.toContain("hunter2");
    },
    30_000,
  );

  it("only reads an embedded database: it creates none, and leaves one a running server holds alone", async () => {
    const empty = mkdtempSync(join(tmpdir(), "dash-check-empty-"));
    const held = copyOfTemplate();
    const release = lockDataDir(held);
    try {
      const embedded = (dataDir: string) =>
        checkConfig({ UPSTREAM_BASE_URL: upstreamUrl, SESSION_SECRET: "s".repeat(40), EMBEDDED_DATABASE: "1", DATA_DIR: dataDir });
      const none = await embedded(empty);
      expect(none).toMatchObject({ code: 0, stderr: "" });
      expect(none.stdout).toContain(`database: embedded, none in ${empty} yet (created at first start)`);
      expect(readdirSync(empty)).toEqual([]);
      const inUse = await embedded(held);
      expect(inUse).toMatchObject({ code: 0, stderr: "" });
      expect(inUse.stdout).toContain(`database: embedded, in use by process ${process.pid} (not opened)`);
    } finally {
      release();
      rmSync(empty, { recursive: true, force: true });
      rmSync(held, { recursive: true, force: true });
    }
  }, 90_000);

  it("reaches nothing with --offline: the settings alone decide", async () => {
    const result = await checkConfig(production({ DATABASE_URL: `postgres://dash@127.0.0.1:${await freePort()}/dash` }), ["--offline"]);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(result.stdout).toContain("Offline: nothing was reached");
    expect(result.stdout).not.toContain("Reached:");
  }, 90_000);

  it("refuses alert webhooks in production without APP_ORIGIN, as the start does", async () => {
    const db = await location.open();
    await db.query(
      `insert into alert_rules (id, organization_id, store_url, definition, webhook_secret, created_by_email, created_at, updated_at)
       values ('rule_check_config', 'org_1', 'https://shop.example', '{"webhookUrl":"https://hooks.example.com/x"}', 's', 'a@example.com', now(), now())`,
    );
    await db.close();
    const result = await checkConfig(production());
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^Problem: APP_ORIGIN is required in production when alert rules call webhooks \(1 do\)/);
    expect((await checkConfig(production({ APP_ORIGIN: "https://dashboard.example.com" }))).code).toBe(0);
  }, 90_000);

  it("refuses e-mail in production without APP_ORIGIN before reaching anything", async () => {
    const result = await checkConfig(production({ SMTP_URL: sink.url }), ["--offline"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^Configuration error: APP_ORIGIN is required in production when SMTP_URL is set/);
  }, 90_000);

  it("masks every password and key of every URL setting: userinfo and query, printed and in problems", async () => {
    const upstreamPort = await freePort();
    const result = await checkConfig(
      production({
        UPSTREAM_BASE_URL: `http://reader:upstream-pw-4815@127.0.0.1:${upstreamPort}/v1?api_key=upstream-key-1623`,
        OTEL_EXPORTER_OTLP_ENDPOINT: "https://collector:otlp-pw-4242@otel.example.com:4318?api_key=otlp-key-9001",
        APP_ORIGIN: "https://dashboard.example.com",
      }),
    );
    const printed = `${result.stdout}${result.stderr}`;
    expect(printed).not.toMatch(/upstream-pw|upstream-key|otlp-pw|otlp-key|reader|collector/);
    expect(result.stdout).toContain("https://***@otel.example.com:4318?api_key=***");
    expect(result.stderr).toContain(`UPSTREAM_BASE_URL (http://***@127.0.0.1:${upstreamPort}/v1?api_key=***) does not answer`);
    const refused = await checkConfig(production({ UPSTREAM_BASE_URL: "ftp://reader:upstream-pw-4815@host/v1" }), ["--offline"]);
    expect(refused.code).toBe(1);
    expect(`${refused.stdout}${refused.stderr}`).not.toContain("upstream-pw");
  }, 90_000);

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    "tries SET ROLE to both roles, and a login user not granted them is a Problem line",
    async () => {
      const user = `dash_i32_probe_${Date.now().toString(36)}`;
      const db = await location.open();
      await db.exec(
        `create role ${user} login password 'probe-pw-7'; grant connect on database "${new URL(location.url!).pathname.slice(1)}" to ${user}`,
      );
      try {
        const url = new URL(location.url!);
        url.username = user;
        url.password = "probe-pw-7";
        const result = await checkConfig(production({ DATABASE_URL: url.toString() }));
        expect(result.code).toBe(1);
        for (const role of ["dashboard_app", "dashboard_maintenance"])
          expect(result.stderr).toContain(`Problem: DATABASE_URL's user cannot set role ${role} (permission denied to set role "${role}")`);
        expect(`${result.stdout}${result.stderr}`).not.toContain("probe-pw-7");
      } finally {
        await db.exec(`drop owned by ${user}; drop role ${user}`);
        await db.close();
      }
    },
    90_000,
  );
});
