import "server-only";
import { z } from "zod";
import {
  flag,
  host,
  httpUrl,
  maskedUrl,
  oneOf,
  optionalWholeNumber,
  safeJson,
  secretList,
  urlWithCredentials,
  wholeNumber,
} from "./fields";

/**
 * Every setting of the dashboard's server, read from the environment in this one module and
 * checked by one schema: types, ranges, defaults, and what production requires. `settings()`
 * is a function (not a constant) so that `next build` never needs the settings and tests can
 * change the environment between calls; it parses again only when a value changed.
 */

const MIN_SECRET_LENGTH = 32;
/** SHUTDOWN_GRACE_MS is at least UPSTREAM_TIMEOUT_MS plus this (and is that by default). */
const GRACE_MARGIN_MS = 5_000;
/** A send in flight at a stop needs its timeout plus the ledger's writes around it. */
const SEND_MARGIN_MS = 500;

const demoKeysSchema = z.array(z.strictObject({ key: z.string().min(1), label: z.string(), state: z.string() }));

const environmentSchema = z
  .object({
    NODE_ENV: z.string().optional(),
    /** Set by `npm start` when it runs the embedded demo upstream. */
    DEMO_MODE: flag("DEMO_MODE"),
    UPSTREAM_BASE_URL: z
      .string()
      .optional()
      .transform((raw, context) => {
        if (!raw) return undefined;
        const url = httpUrl("UPSTREAM_BASE_URL", raw, context);
        if (url && !/\/v1\/?$/.test(url.pathname)) {
          context.addIssue({ code: "custom", message: `UPSTREAM_BASE_URL must end in /v1, got "${maskedUrl(raw)}".` });
        }
        return url?.toString().replace(/\/$/, "");
      }),
    UPSTREAM_TIMEOUT_MS: wholeNumber("UPSTREAM_TIMEOUT_MS", 15_000, { max: 600_000 }),
    ROW_WORKERS: oneOf("ROW_WORKERS", ["on", "off"] as const, "on"),
    SESSION_SECRET: secretList("SESSION_SECRET", "secret", MIN_SECRET_LENGTH),
    SESSION_TTL_SECONDS: wholeNumber("SESSION_TTL_SECONDS", 8 * 60 * 60),
    SESSION_IDLE_SECONDS: wholeNumber("SESSION_IDLE_SECONDS", 60 * 60),
    SESSION_COOKIE_SECURE: z
      .enum(["1", "0", ""], { message: "SESSION_COOKIE_SECURE must be 1, 0 or unset." })
      .optional()
      .transform((raw) => (raw === "1" ? true : raw === "0" ? false : undefined)),
    KEY_RECHECK_SECONDS: wholeNumber("KEY_RECHECK_SECONDS", 120, { max: 3600 }),
    DATABASE_URL: urlWithCredentials(
      /^postgres(ql)?:$/,
      "DATABASE_URL must be a PostgreSQL URL: postgres://user:password@host:5432/database.",
    ),
    EMBEDDED_DATABASE: flag("EMBEDDED_DATABASE"),
    DATA_DIR: z.string().optional(),
    DATABASE_POOL_SIZE: wholeNumber("DATABASE_POOL_SIZE", 10, { max: 1000 }),
    DATABASE_CONNECT_TIMEOUT_MS: wholeNumber("DATABASE_CONNECT_TIMEOUT_MS", 5_000, { max: 120_000 }),
    DATABASE_STATEMENT_TIMEOUT_MS: wholeNumber("DATABASE_STATEMENT_TIMEOUT_MS", 5_000, { max: 600_000 }),
    AUDIT_RETENTION_DAYS: wholeNumber("AUDIT_RETENTION_DAYS", 400, { max: 36_500 }),
    /** Lifetimes of the daily retention purge (server/maintenance/retention.ts), in days. */
    RETENTION_MAIL_BODY_DAYS: wholeNumber("RETENTION_MAIL_BODY_DAYS", 30, { max: 36_500 }),
    RETENTION_DELIVERIES_DAYS: wholeNumber("RETENTION_DELIVERIES_DAYS", 90, { max: 36_500 }),
    RETENTION_NOTIFICATIONS_DAYS: wholeNumber("RETENTION_NOTIFICATIONS_DAYS", 400, { max: 36_500 }),
    RETENTION_WEBHOOK_ATTEMPTS_DAYS: wholeNumber("RETENTION_WEBHOOK_ATTEMPTS_DAYS", 30, { max: 36_500 }),
    RETENTION_GRANT_NOTICES_DAYS: wholeNumber("RETENTION_GRANT_NOTICES_DAYS", 90, { max: 36_500 }),
    RETENTION_DELETED_RULES_DAYS: wholeNumber("RETENTION_DELETED_RULES_DAYS", 30, { max: 36_500 }),
    APP_ORIGIN: z
      .string()
      .optional()
      .transform((raw, context) => {
        if (!raw) return undefined;
        const url = httpUrl("APP_ORIGIN", raw, context);
        if (url && (url.pathname !== "/" || url.search || url.hash)) {
          context.addIssue({
            code: "custom",
            message: `APP_ORIGIN must be an origin only (https://dashboard.example.com), got "${maskedUrl(raw)}".`,
          });
        }
        return url?.origin;
      }),
    HOST: host("HOST", "127.0.0.1"),
    PORT: wholeNumber("PORT", 3000, { max: 65_535 }),
    TRUST_PROXY_HOPS: wholeNumber("TRUST_PROXY_HOPS", 0, { min: 0, max: 10 }),
    SERVER_HEADERS_TIMEOUT_MS: wholeNumber("SERVER_HEADERS_TIMEOUT_MS", 20_000),
    SERVER_REQUEST_TIMEOUT_MS: wholeNumber("SERVER_REQUEST_TIMEOUT_MS", 60_000),
    SERVER_KEEP_ALIVE_TIMEOUT_MS: wholeNumber("SERVER_KEEP_ALIVE_TIMEOUT_MS", 65_000),
    SHUTDOWN_GRACE_MS: optionalWholeNumber("SHUTDOWN_GRACE_MS", { min: 0, max: 3_600_000 }),
    LOG_LEVEL: oneOf("LOG_LEVEL", ["debug", "info", "warn", "error"] as const, "info"),
    LOG_PROBES: oneOf("LOG_PROBES", ["all", "failures", "none"] as const, "failures"),
    METRICS_PORT: optionalWholeNumber("METRICS_PORT", { max: 65_535 }),
    METRICS_HOST: host("METRICS_HOST", "127.0.0.1"),
    OTEL_EXPORTER_OTLP_ENDPOINT: z
      .string()
      .optional()
      .transform((raw, context) => (raw ? httpUrl("OTEL_EXPORTER_OTLP_ENDPOINT", raw, context)?.toString().replace(/\/$/, "") : undefined)),
    OTEL_SERVICE_NAME: z.string().optional(),
    DELEGATION_KEY: secretList("DELEGATION_KEY", "key", MIN_SECRET_LENGTH),
    DELEGATION_TTL_DAYS: wholeNumber("DELEGATION_TTL_DAYS", 90, { max: 3650 }),
    SMTP_URL: urlWithCredentials(/^smtps?:$/, "SMTP_URL must be an SMTP URL: smtp://user:password@host:587 or smtps://…:465."),
    MAIL_FROM: z.string().optional(),
    BACKGROUND_JOBS: oneOf("BACKGROUND_JOBS", ["on", "off"] as const, "on"),
    JOBS_LEASE_SECONDS: wholeNumber("JOBS_LEASE_SECONDS", 30, { min: 5, max: 600 }),
    JOBS_CONCURRENCY: wholeNumber("JOBS_CONCURRENCY", 4, { max: 64 }),
    JOBS_RUN_DEADLINE_SECONDS: wholeNumber("JOBS_RUN_DEADLINE_SECONDS", 900, { min: 10, max: 86_400 }),
    JOBS_TENANT_CONCURRENCY: wholeNumber("JOBS_TENANT_CONCURRENCY", 2, { max: 1000 }),
    ROLLUPS: oneOf("ROLLUPS", ["auto", "on", "off"] as const, "auto"),
    ROLLUP_FRESH_DAYS: wholeNumber("ROLLUP_FRESH_DAYS", 3, { min: 0, max: 366 }),
    ROLLUP_REVALIDATE_SECONDS: wholeNumber("ROLLUP_REVALIDATE_SECONDS", 86_400, { min: 1, max: 31_536_000 }),
    ROLLUP_BUDGET_MB: wholeNumber("ROLLUP_BUDGET_MB", 2_048, { min: 1, max: 1_048_576 }),
    ROLLUP_FILL_CONCURRENCY: wholeNumber("ROLLUP_FILL_CONCURRENCY", 1, { min: 1, max: 16 }),
    ROLLUP_RETENTION_DAYS: wholeNumber("ROLLUP_RETENTION_DAYS", 30, { min: 1, max: 36_500 }),
    WEBHOOK_ALLOW_PRIVATE: z
      .enum(["1", "0", ""], { message: "WEBHOOK_ALLOW_PRIVATE must be 1, 0 or unset." })
      .optional()
      .transform((raw) => (raw === "1" ? true : raw === "0" ? false : undefined)),
    WEBHOOK_TIMEOUT_MS: wholeNumber("WEBHOOK_TIMEOUT_MS", 5_000, { max: 60_000 }),
    ALERT_MAIL_PER_HOUR: wholeNumber("ALERT_MAIL_PER_HOUR", 50, { max: 100_000 }),
    /** How long each wait on the SMTP server may take (connection, greeting, each answer). */
    SMTP_TIMEOUT_MS: wholeNumber("SMTP_TIMEOUT_MS", 10_000, { max: 20_000 }),
    /** Set by `npm start` with the demo upstream's keys, which the sign-in page offers by label. */
    DEMO_KEYS: z
      .string()
      .optional()
      .transform((raw, context) => {
        if (!raw) return [];
        const keys = demoKeysSchema.safeParse(safeJson(raw));
        if (!keys.success) {
          context.addIssue({ code: "custom", message: "DEMO_KEYS must be a JSON list of { key, label, state } (npm start sets it)." });
          return z.NEVER;
        }
        return keys.data;
      }),
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
    // A stop lets requests in flight finish: an action's upstream call needs its whole deadline, plus a name lookup
    // and the database writes around it, else a routine restart leaves its outcome unknown.
    // A webhook attempt or an SMTP wait in flight at a stop ends within its timeout: the grace must hold it.
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

/**
 * What `npm start` itself reads (it runs the demo upstream unless UPSTREAM_BASE_URL is set, then
 * the dashboard, which checks every setting of its own).
 */
const launcherSchema = z.object({
  PORT: wholeNumber("PORT", 3000, { max: 65_535 }),
  HOST: host("HOST", "127.0.0.1"),
  UPSTREAM_BASE_URL: environmentSchema.in.shape.UPSTREAM_BASE_URL,
  DEMO_UPSTREAM_PORT: wholeNumber("DEMO_UPSTREAM_PORT", 4010, { max: 65_535 }),
  DEMO_UPSTREAM_SEED: optionalWholeNumber("DEMO_UPSTREAM_SEED", { min: 0 }),
  DEMO_UPSTREAM_SCALE: optionalWholeNumber("DEMO_UPSTREAM_SCALE", { max: 1000 }),
  DEMO_UPSTREAM_CONTROL: flag("DEMO_UPSTREAM_CONTROL"),
  DEMO_UPSTREAM_ODD: flag("DEMO_UPSTREAM_ODD"),
  // The demo upstream checks each rule itself; here only that it is a JSON array, so a typo stops npm start early.
  DEMO_UPSTREAM_ANOMALIES: z
    .string()
    .optional()
    .refine((raw) => raw === undefined || raw === "" || Array.isArray(safeJson(raw)), {
      message: "DEMO_UPSTREAM_ANOMALIES must be a JSON array of anomaly rules.",
    }),
  SHUTDOWN_GRACE_MS: optionalWholeNumber("SHUTDOWN_GRACE_MS", { min: 0, max: 3_600_000 }),
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
