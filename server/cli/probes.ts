import "server-only";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import nodemailer from "nodemailer";
import { webhookOriginProblem } from "@/server/alerts/rules";
import { DataDirInUse } from "@/server/db/data-dir-lock";
import { openDatabase, type Db } from "@/server/db/database";
import { describeOpenFailure } from "@/server/db/open-failure";
import { newerMigrationProblem, migrationVersions, newestAppliedMigration, pendingMigrations } from "@/server/db/migrate";
import { acrossStoresIfMigrated } from "@/server/db/reach";
import { censusLine, masterKeyCensus } from "@/server/grants/census";
import { masterKeysFrom, openApiKey, type GrantBinding } from "@/server/grants/envelope";
import type { settings } from "@/server/config/settings";
import { maskedUrl } from "@/server/config/fields";

/** What `npm run check-config` tries beyond the settings' form; each probe gives `notes` or `problems` naming the setting. */

type Settings = ReturnType<typeof settings>;

export interface ProbeResult {
  notes: string[];
  problems: string[];
}

/** The roles the application's queries run as (server/db/reach.ts): the login user must be able to SET ROLE to each. */
const ROLES = ["dashboard_app", "dashboard_maintenance"] as const;
const APP_ROLE = ROLES[0];

function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

async function migrationsOf(db: Db): Promise<{ current: string; pending: string[]; ahead: string[] }> {
  const pending = await pendingMigrations(db);
  const [table] = await db.query<{ name: string | null }>("select to_regclass('schema_migrations')::text as name");
  if (!table?.name) return { current: "", pending, ahead: [] };
  const applied = (await db.query<{ version: string }>("select version from schema_migrations order by version")).map((row) => row.version);
  const known = new Set(migrationVersions());
  return { current: await newestAppliedMigration(db), pending, ahead: applied.filter((version) => !known.has(version)) };
}

async function rolesAndRowSecurity(db: Db): Promise<string> {
  const [role] = await db.query<{ exists: boolean }>("select exists (select 1 from pg_roles where rolname = $1) as exists", [APP_ROLE]);
  const forced = await db.query<{ name: string }>(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where c.relkind = 'r' and c.relforcerowsecurity and n.nspname = current_schema() order by 1`,
  );
  if (!role?.exists && forced.length === 0)
    return `roles and row-level security: not in place (no ${APP_ROLE} role, no table forces row-level security)`;
  const roleText = role?.exists ? `role ${APP_ROLE} present` : `no ${APP_ROLE} role`;
  return `roles and row-level security: ${roleText}; ${forced.length} table(s) force row-level security${forced.length ? ` (${forced.map((row) => row.name).join(", ")})` : ""}`;
}

/** Tries `set role` to each role as every query does: on managed PostgreSQL it fails first when the login user lacks the role. */
async function roleProblems(db: Db): Promise<string[]> {
  const problems: string[] = [];
  for (const role of ROLES) {
    const [found] = await db.query<{ exists: boolean }>("select exists (select 1 from pg_roles where rolname = $1) as exists", [role]);
    if (!found?.exists) continue;
    try {
      await db.transaction(async (tx) => void (await tx.query("select 1")), `set local role ${role}`);
    } catch (error) {
      problems.push(
        `DATABASE_URL's user cannot set role ${role} (${error instanceof Error ? error.message : String(error)}): grant ${role} to that user (docs/decisions/row-level-security.md, "What a managed PostgreSQL needs").`,
      );
    }
  }
  return problems;
}

/** Grants in force per master key id, whether DELEGATION_KEY holds each, and how many it opens. */
async function grantsOf(db: Db, keys: string[]): Promise<ProbeResult> {
  const [table] = await db.query<{ name: string | null }>("select to_regclass('grants')::text as name");
  if (!table?.name) return { notes: ["grants: none (the table is not there yet)"], problems: [] };
  type Row = GrantBinding & { masterKeyId: string; wrappedDataKey: Buffer; sealedApiKey: Buffer; sealVersion: number };
  // seal_version comes with migration 0014: read through to_jsonb so a schema behind this build still answers.
  const rows = await acrossStoresIfMigrated(db, "check-config's count of the grants DELEGATION_KEY opens", (tx) =>
    tx.query<Row>(
      `select id as "grantId", organization_id as "organizationId", store_url as "storeUrl", key_fingerprint as "keyFingerprint",
         master_key_id as "masterKeyId", wrapped_data_key as "wrappedDataKey", sealed_api_key as "sealedApiKey",
         coalesce((to_jsonb(g) ->> 'seal_version')::int, 1) as "sealVersion"
       from grants g where ended_at is null`,
    ),
  );
  const masters = masterKeysFrom(keys);
  const counts = new Map<string, number>();
  let damaged = 0;
  for (const row of rows) {
    counts.set(row.masterKeyId, (counts.get(row.masterKeyId) ?? 0) + 1);
    if (!masters.some((master) => master.id === row.masterKeyId)) continue;
    try {
      openApiKey(row, { ...row, wrappedDataKey: Buffer.from(row.wrappedDataKey), sealedApiKey: Buffer.from(row.sealedApiKey) }, masters);
    } catch {
      damaged += 1;
    }
  }
  const { perKey, missing } = masterKeyCensus(
    [...counts].map(([masterKeyId, grants]) => ({ masterKeyId, grants })),
    masters.map((master) => master.id),
  );
  const missingGrants = perKey.filter((count) => !count.present).reduce((sum, count) => sum + count.grants, 0);
  const opened = rows.length - missingGrants - damaged;
  const notes = [
    `grants: DELEGATION_KEY opens ${opened} of ${rows.length} grant(s) in force`,
    `grants per master key id: ${censusLine(perKey)}`,
  ];
  const problems = [
    ...missing.map(
      (id) =>
        `DELEGATION_KEY cannot open ${counts.get(id)} grant(s) sealed under master key id ${id}: add that key back to DELEGATION_KEY, after the newest (the grants are kept until then).`,
    ),
    ...(damaged > 0 ? [`${damaged} grant(s) fail their check under a master key DELEGATION_KEY holds (damaged or altered rows).`] : []),
  ];
  return { notes, problems };
}

/** The database: reached, migrations, roles and row-level security, grants, and the rule on APP_ORIGIN for webhooks. */
export async function probeDatabase(config: Settings, timeoutMs: number): Promise<ProbeResult> {
  const { url, dataDir } = config.database;
  // The embedded database is only read: never created here, nor opened under a running server.
  if (!url && !existsSync(join(resolve(dataDir), "PG_VERSION"))) {
    return { notes: [`database: embedded, none in ${resolve(dataDir)} yet (created at first start)`], problems: [] };
  }
  let db: Db;
  try {
    db = await withDeadline(
      openDatabase({
        url,
        dataDir,
        pool: { poolSize: 1, connectTimeoutMs: timeoutMs, statementTimeoutMs: timeoutMs },
        migrate: false,
      }).then(async (opened) => {
        await opened.query("select 1");
        return opened;
      }),
      timeoutMs,
      "the database",
    );
  } catch (error) {
    if (error instanceof DataDirInUse)
      return { notes: [`database: embedded, in use by process ${error.holder.pid} (not opened)`], problems: [] };
    return { notes: [], problems: [describeOpenFailure(error)] };
  }
  // The roles first: the rest reads tables the login user may read only once it may be them.
  const problems: string[] = await roleProblems(db).catch(() => []);
  try {
    const notes: string[] = [];
    const { current, pending, ahead } = await migrationsOf(db);
    notes.push(
      `database: reached; schema at ${current || "(empty)"}, ${pending.length} pending${pending.length ? ` (${pending.join(", ")})` : ""}, ${ahead.length} ahead of this build${ahead.length ? ` (${ahead.join(", ")})` : ""}`,
    );
    notes.push(await rolesAndRowSecurity(db));
    const grants = await grantsOf(db, config.delegation.keys);
    notes.push(...grants.notes);
    problems.push(...grants.problems);
    const origin = await webhookOriginProblem(db, config);
    if (origin) problems.push(origin);
    // A migration ahead of this build that does not say this build keeps working: the server would refuse to start.
    const breaks = ahead.length > 0 ? await newerMigrationProblem(db) : null;
    if (breaks) problems.push(breaks.message);
    return { notes, problems };
  } catch (error) {
    return {
      notes: [],
      problems: [...problems, `the database answered, but reading it failed: ${error instanceof Error ? error.message : String(error)}`],
    };
  } finally {
    await db.close().catch(() => {});
  }
}

/** The SMTP server: greeted (EHLO, and AUTH when the URL has a user), never sent anything. */
export async function probeSmtp(smtpUrl: string, timeoutMs: number): Promise<ProbeResult> {
  const url = new URL(smtpUrl);
  const where = `${url.hostname}:${url.port || (url.protocol === "smtps:" ? 465 : 587)}`;
  const transport = nodemailer.createTransport({
    host: url.hostname,
    port: Number(url.port) || (url.protocol === "smtps:" ? 465 : 587),
    secure: url.protocol === "smtps:",
    auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  try {
    await withDeadline(transport.verify(), timeoutMs + 500, "SMTP");
    return { notes: [`smtp: ${where} answered EHLO`], problems: [] };
  } catch (error) {
    const raw = error instanceof Error ? error.message : String(error);
    const message = url.password ? raw.replaceAll(decodeURIComponent(url.password), "***") : raw;
    return { notes: [], problems: [`SMTP_URL (${where}) cannot be used: ${message}`] };
  } finally {
    transport.close();
  }
}

/** The upstream: any HTTP answer below 500 to GET /context (without a key, a 401) shows it is there. */
export async function probeUpstream(url: string, timeoutMs: number): Promise<ProbeResult> {
  const baseUrl = maskedUrl(url);
  try {
    const response = await fetch(`${url}/context`, { signal: AbortSignal.timeout(timeoutMs), redirect: "manual" });
    await response.body?.cancel();
    if (response.status >= 500)
      return { notes: [], problems: [`UPSTREAM_BASE_URL (${baseUrl}) answers ${response.status} to GET /context.`] };
    return { notes: [`upstream: ${baseUrl} answered (${response.status} to GET /context without a key)`], problems: [] };
  } catch (error) {
    type Cause = { code?: string; message?: string; errors?: { code?: string }[] };
    const inner = (error as { cause?: Cause }).cause;
    const cause = inner?.code ?? inner?.errors?.[0]?.code ?? inner?.message ?? (error instanceof Error ? error.message : String(error));
    // The cause may quote the URL itself (fetch refuses one holding credentials, and says so with it).
    return { notes: [], problems: [`UPSTREAM_BASE_URL (${baseUrl}) does not answer: ${cause.replaceAll(url, baseUrl)}.`] };
  }
}
