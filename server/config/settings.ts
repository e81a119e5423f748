import "server-only";
import { z } from "zod";
import { background, demo as demoGroup, rollups } from "./groups-background";
import { database, MIN_SECRET_LENGTH, observability, server, sessions, upstream } from "./groups";

/**
 * Every server setting, read from the environment here and checked by one schema. A function, so `next build` needs no settings and tests
 * can change the environment; it parses again only when a value changed.
 */

/** SHUTDOWN_GRACE_MS is at least UPSTREAM_TIMEOUT_MS plus this (and is that by default). */
const GRACE_MARGIN_MS = 5_000;
/** A send in flight at a stop needs its timeout plus the ledger's writes around it. */
const SEND_MARGIN_MS = 500;

const environmentSchema = z
  .object({
    ...upstream.shape,
    ...sessions.shape,
    ...database.shape,
    ...server.shape,
    ...observability.shape,
    ...background.shape,
    ...rollups.shape,
    DEMO_MODE: demoGroup.shape.DEMO_MODE,
    DEMO_KEYS: demoGroup.shape.DEMO_KEYS,
  })
  .transform((env, context) => {
    const demo = env.DEMO_MODE;
    const production = env.NODE_ENV === "production" && !demo;
    if (!env.UPSTREAM_BASE_URL) {
      context.addIssue({
        code: "custom",
        message:
          "UPSTREAM_BASE_URL is not set: start the dashboard with `npm start`, which runs the demo upstream, or set it to the API's /v1 URL.",
      });
    }
    if (production && env.SESSION_SECRET.length === 0) {
      context.addIssue({
        code: "custom",
        message: `SESSION_SECRET is required in production: set it to a random string of at least ${MIN_SECRET_LENGTH} characters (for example \`openssl rand -base64 48\`).`,
      });
    }
    // A message's body goes before its row, and a notification's webhook attempts before the notification.
    for (const [shorter, longer] of [
      ["RETENTION_MAIL_BODY_DAYS", "RETENTION_DELIVERIES_DAYS"],
      ["RETENTION_WEBHOOK_ATTEMPTS_DAYS", "RETENTION_NOTIFICATIONS_DAYS"],
    ] as const) {
      if (env[shorter] > env[longer])
        context.addIssue({ code: "custom", message: `${shorter} (${env[shorter]}) must be at most ${longer} (${env[longer]}).` });
    }
    if (env.SERVER_REQUEST_TIMEOUT_MS < env.SERVER_HEADERS_TIMEOUT_MS) {
      context.addIssue({ code: "custom", message: "SERVER_REQUEST_TIMEOUT_MS must be at least SERVER_HEADERS_TIMEOUT_MS." });
    }
    // The stop's grace must hold an action's whole upstream deadline (plus lookup and writes) and any webhook or SMTP timeout in flight.
    const sendTimeouts: [string, number][] = [
      ["WEBHOOK_TIMEOUT_MS", env.WEBHOOK_TIMEOUT_MS],
      ...(env.SMTP_URL ? ([["SMTP_TIMEOUT_MS", env.SMTP_TIMEOUT_MS]] as [string, number][]) : []),
    ];
    for (const [name, timeoutMs] of sendTimeouts) {
      if (env.SHUTDOWN_GRACE_MS !== undefined && env.SHUTDOWN_GRACE_MS < timeoutMs + SEND_MARGIN_MS) {
        context.addIssue({
          code: "custom",
          message: `SHUTDOWN_GRACE_MS (${env.SHUTDOWN_GRACE_MS}) must be at least ${name} + ${SEND_MARGIN_MS} (${timeoutMs + SEND_MARGIN_MS}): a stop would otherwise cut a send in flight into an unknown outcome.`,
        });
      }
    }
    const minimumGraceMs = Math.max(
      env.UPSTREAM_TIMEOUT_MS + GRACE_MARGIN_MS,
      ...sendTimeouts.map(([, timeoutMs]) => timeoutMs + SEND_MARGIN_MS),
    );
    if (env.SHUTDOWN_GRACE_MS !== undefined && env.SHUTDOWN_GRACE_MS < env.UPSTREAM_TIMEOUT_MS + GRACE_MARGIN_MS) {
      context.addIssue({
        code: "custom",
        message: `SHUTDOWN_GRACE_MS (${env.SHUTDOWN_GRACE_MS}) must be at least UPSTREAM_TIMEOUT_MS + ${GRACE_MARGIN_MS} (${env.UPSTREAM_TIMEOUT_MS + GRACE_MARGIN_MS}): a stop would otherwise cut actions in flight into an unknown outcome.`,
      });
    }
    // A run is abandoned at its deadline: it must outlast its lease (or the deadline would pass unseen
    // between two heartbeats) and leave room for one upstream read and one send.
    if (env.JOBS_RUN_DEADLINE_SECONDS <= env.JOBS_LEASE_SECONDS) {
      context.addIssue({
        code: "custom",
        message: `JOBS_RUN_DEADLINE_SECONDS (${env.JOBS_RUN_DEADLINE_SECONDS}) must be more than JOBS_LEASE_SECONDS (${env.JOBS_LEASE_SECONDS}).`,
      });
    }
    const runNeedsMs = env.UPSTREAM_TIMEOUT_MS + Math.max(...sendTimeouts.map(([, timeoutMs]) => timeoutMs)) + SEND_MARGIN_MS;
    if (env.JOBS_RUN_DEADLINE_SECONDS * 1000 < runNeedsMs) {
      context.addIssue({
        code: "custom",
        message: `JOBS_RUN_DEADLINE_SECONDS (${env.JOBS_RUN_DEADLINE_SECONDS}) must be at least ${Math.ceil(runNeedsMs / 1000)}: a run needs room for one upstream read (UPSTREAM_TIMEOUT_MS) and one send (${sendTimeouts.map(([name]) => name).join(" or ")}) before its deadline.`,
      });
    }
    if (production && !env.DATABASE_URL && !env.EMBEDDED_DATABASE) {
      context.addIssue({
        code: "custom",
        message:
          "DATABASE_URL is not set: with a real upstream the dashboard needs PostgreSQL, as several instances would each keep their own sessions, actions and limits. Set DATABASE_URL, or EMBEDDED_DATABASE=1 to run one instance on the embedded database.",
      });
    }
    if (production && env.SMTP_URL && !env.APP_ORIGIN) {
      context.addIssue({
        code: "custom",
        message:
          "APP_ORIGIN is required in production when SMTP_URL is set: e-mails link to the dashboard, so set it to its public origin (https://dashboard.example.com).",
      });
    }
    return {
      production,
      demo,
      upstream: { baseUrl: env.UPSTREAM_BASE_URL ?? "", timeoutMs: env.UPSTREAM_TIMEOUT_MS, rowWorkers: env.ROW_WORKERS === "on" },
      session: {
        secrets: env.SESSION_SECRET,
        ttlSeconds: env.SESSION_TTL_SECONDS,
        idleSeconds: env.SESSION_IDLE_SECONDS,
        cookieSecure: env.SESSION_COOKIE_SECURE,
        keyRecheckSeconds: env.KEY_RECHECK_SECONDS,
      },
      database: {
        url: env.DATABASE_URL,
        embedded: !env.DATABASE_URL,
        dataDir: env.DATA_DIR || ".data",
        poolSize: env.DATABASE_POOL_SIZE,
        connectTimeoutMs: env.DATABASE_CONNECT_TIMEOUT_MS,
        statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
      },
      server: {
        host: env.HOST,
        port: env.PORT,
        trustProxyHops: env.TRUST_PROXY_HOPS,
        headersTimeoutMs: env.SERVER_HEADERS_TIMEOUT_MS,
        requestTimeoutMs: env.SERVER_REQUEST_TIMEOUT_MS,
        keepAliveTimeoutMs: env.SERVER_KEEP_ALIVE_TIMEOUT_MS,
        shutdownGraceMs: env.SHUTDOWN_GRACE_MS ?? minimumGraceMs,
      },
      observability: {
        logLevel: env.LOG_LEVEL,
        logProbes: env.LOG_PROBES,
        metricsPort: env.METRICS_PORT,
        metricsHost: env.METRICS_HOST,
        otlpEndpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT,
        serviceName: env.OTEL_SERVICE_NAME || "store-analytics-dashboard",
      },
      development: env.NODE_ENV === "development",
      auditRetentionDays: env.AUDIT_RETENTION_DAYS,
      retention: {
        mailBodyDays: env.RETENTION_MAIL_BODY_DAYS,
        deliveriesDays: env.RETENTION_DELIVERIES_DAYS,
        notificationsDays: env.RETENTION_NOTIFICATIONS_DAYS,
        webhookAttemptsDays: env.RETENTION_WEBHOOK_ATTEMPTS_DAYS,
        grantNoticesDays: env.RETENTION_GRANT_NOTICES_DAYS,
        deletedRulesDays: env.RETENTION_DELETED_RULES_DAYS,
        // Data changes are kept as long as Activity.
        dataChangesDays: env.AUDIT_RETENTION_DAYS,
        rollupStoreDays: env.ROLLUP_RETENTION_DAYS,
      },
      delegation: {
        // Production needs its own master keys; the demo and development generate one per process.
        enabled: env.DELEGATION_KEY.length > 0 || !production,
        keys: env.DELEGATION_KEY,
        ttlDays: env.DELEGATION_TTL_DAYS,
      },
      mail: {
        smtpUrl: env.SMTP_URL,
        from: env.MAIL_FROM || "Store analytics <digests@dashboard.invalid>",
        timeoutMs: env.SMTP_TIMEOUT_MS,
        alertsPerHour: env.ALERT_MAIL_PER_HOUR,
      },
      jobs: {
        enabled: env.BACKGROUND_JOBS === "on",
        leaseSeconds: env.JOBS_LEASE_SECONDS,
        concurrency: env.JOBS_CONCURRENCY,
        runDeadlineSeconds: env.JOBS_RUN_DEADLINE_SECONDS,
        tenantConcurrency: env.JOBS_TENANT_CONCURRENCY,
      },
      rollups: {
        // On PostgreSQL by default; the embedded PGlite writes and sums cells slower than the upstream streams rows (docs/decisions/rollups.md).
        enabled: env.ROLLUPS === "on" || (env.ROLLUPS === "auto" && Boolean(env.DATABASE_URL)),
        freshDays: env.ROLLUP_FRESH_DAYS,
        revalidateSeconds: env.ROLLUP_REVALIDATE_SECONDS,
        budgetBytes: env.ROLLUP_BUDGET_MB * 1024 * 1024,
        fillConcurrency: env.ROLLUP_FILL_CONCURRENCY,
      },
      appOrigin: env.APP_ORIGIN,
      demoKeys: demo ? env.DEMO_KEYS : [],
      // The demo's webhook receivers run on this machine, so it reaches private addresses unless told not to.
      webhooks: { allowPrivate: env.WEBHOOK_ALLOW_PRIVATE ?? demo, timeoutMs: env.WEBHOOK_TIMEOUT_MS },
    };
  });

type Settings = z.output<typeof environmentSchema>;

const NAMES = Object.keys(environmentSchema.in.shape) as (keyof typeof environmentSchema.in.shape)[];

/** A problem with the settings: one line each, naming the variable. */
class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join("\n"));
    this.name = "ConfigError";
  }
}

let cached: { key: string; result: ReturnType<typeof environmentSchema.safeParse> } | undefined;

function parse() {
  const raw = Object.fromEntries(NAMES.map((name) => [name, process.env[name]]));
  const key = JSON.stringify(raw);
  if (cached?.key !== key) cached = { key, result: environmentSchema.safeParse(raw) };
  return cached.result;
}

/** How the server runs: Next.js reads NODE_ENV to choose its mode, as `next start` and `next dev` set it. */
export function setProcessMode(dev: boolean): void {
  Object.assign(process.env, { NODE_ENV: dev ? "development" : "production" });
}

/** A standalone build has no next.config to load: Next.js takes the resolved config the build recorded. */
export function applyStandaloneConfig(config: unknown): void {
  process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(config);
}

/** Every problem with the current settings, one line each; empty when they are usable. */
export function settingProblems(): string[] {
  const result = parse();
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
}

/** The checked settings; throws ConfigError naming every problem. */
export function settings(): Settings {
  const result = parse();
  if (!result.success) throw new ConfigError(result.error.issues.map((issue) => issue.message));
  return result.data;
}

/** What `npm start` itself reads (the demo upstream runs unless UPSTREAM_BASE_URL is set). */
const launcherSchema = z.object({
  PORT: server.shape.PORT,
  HOST: server.shape.HOST,
  UPSTREAM_BASE_URL: upstream.shape.UPSTREAM_BASE_URL,
  DEMO_UPSTREAM_PORT: demoGroup.shape.DEMO_UPSTREAM_PORT,
  DEMO_UPSTREAM_SEED: demoGroup.shape.DEMO_UPSTREAM_SEED,
  DEMO_UPSTREAM_SCALE: demoGroup.shape.DEMO_UPSTREAM_SCALE,
  DEMO_UPSTREAM_CONTROL: demoGroup.shape.DEMO_UPSTREAM_CONTROL,
  DEMO_UPSTREAM_ODD: demoGroup.shape.DEMO_UPSTREAM_ODD,
  DEMO_UPSTREAM_ANOMALIES: demoGroup.shape.DEMO_UPSTREAM_ANOMALIES,
  SHUTDOWN_GRACE_MS: server.shape.SHUTDOWN_GRACE_MS,
});

export type LauncherSettings = z.output<typeof launcherSchema>;

/** Every setting any part of the dashboard reads (the server's schema, then the launcher's own). */
export function settingNames(): string[] {
  return [...new Set<string>([...NAMES, ...Object.keys(launcherSchema.shape)])];
}

/** The launcher's settings, or every problem with them, one line each. */
export function launcherSettings(): { settings?: LauncherSettings; problems: string[] } {
  const raw = Object.fromEntries(Object.keys(launcherSchema.shape).map((name) => [name, process.env[name]]));
  const result = launcherSchema.safeParse(raw);
  return result.success ? { settings: result.data, problems: [] } : { problems: result.error.issues.map((issue) => issue.message) };
}
