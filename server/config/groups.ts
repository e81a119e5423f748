import "server-only";
import { z } from "zod";
import {
  flag,
  group,
  host,
  httpUrl,
  maskedUrl,
  oneOf,
  onOff,
  optionalWholeNumber,
  secretList,
  urlWithCredentials,
  wholeNumber,
} from "./fields";

/** The server's settings, group by group, each described in its `.meta()`; docs/configuration.md is printed from these. */

export const MIN_SECRET_LENGTH = 32;

export const upstream = group("Upstream", "The API the dashboard reads and acts on.", {
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
    })
    .meta({
      default: "the demo upstream (`npm start`)",
      production: "required",
      description: "Upstream base URL, ending in `/v1`. When unset, `npm start` runs the demo upstream and sets it.",
    }),
  UPSTREAM_TIMEOUT_MS: wholeNumber("UPSTREAM_TIMEOUT_MS", 15_000, { max: 600_000 }).meta({
    description: "Deadline for one upstream call, body included; past it the dashboard answers 504.",
  }),
  ROW_WORKERS: oneOf("ROW_WORKERS", ["on", "off"] as const, "on").meta({
    description:
      "`on`: the product rows of a view are parsed and summed on a worker thread, so other requests are not held up behind a long read; `off`: on the event loop.",
  }),
});

export const sessions = group("Sessions", "The encrypted session cookie and how long a sign-in lasts.", {
  SESSION_SECRET: secretList("SESSION_SECRET", "secret", MIN_SECRET_LENGTH).meta({
    default: "random per start (demo, development)",
    production: "required",
    description:
      "Secret that encrypts the session cookie, at least 32 characters. Several, separated by commas, newest first, allow rotation: the newest seals, all unseal. Every instance needs the same list (readiness shows a fingerprint of the newest to compare).",
  }),
  SESSION_TTL_SECONDS: wholeNumber("SESSION_TTL_SECONDS", 8 * 60 * 60).meta({
    description: "Absolute session lifetime (8 h), checked against each session's row: lowering it ends sessions already issued.",
  }),
  SESSION_IDLE_SECONDS: wholeNumber("SESSION_IDLE_SECONDS", 60 * 60).meta({ description: "A session unused this long (1 h) ends." }),
  SESSION_COOKIE_SECURE: onOff("SESSION_COOKIE_SECURE").meta({
    default: "from the request",
    description:
      "By default the cookie is Secure (and named `__Host-session`) exactly when the browser came over HTTPS, directly or through a proxy trusted by `TRUST_PROXY_HOPS`; HSTS is sent then too. `1` forces Secure, `0` turns it off.",
  }),
  KEY_RECHECK_SECONDS: wholeNumber("KEY_RECHECK_SECONDS", 120, { max: 3600 }).meta({
    description:
      "How long what a key reaches (its organizations and stores) is trusted before it is asked again; a key revoked upstream stops reading the dashboard's own data within this.",
  }),
});

const days = (name: string, fallback: number, description: string) => wholeNumber(name, fallback, { max: 36_500 }).meta({ description });

export const database = group("Database", "Where the dashboard keeps its durable state (sessions, actions, views, grants, jobs).", {
  DATABASE_URL: urlWithCredentials(
    /^postgres(ql)?:$/,
    "DATABASE_URL must be a PostgreSQL URL: postgres://user:password@host:5432/database.",
  ).meta({
    default: "embedded PGlite in `DATA_DIR`",
    production: "required (or `EMBEDDED_DATABASE=1`)",
    description:
      "PostgreSQL URL (`postgres://user:password@host:5432/dbname`). Unset: an embedded PostgreSQL (PGlite) in `DATA_DIR`, for one instance.",
  }),
  EMBEDDED_DATABASE: flag("EMBEDDED_DATABASE").meta({
    description: "`1` allows production on the embedded database (one instance only, stated in readiness).",
  }),
  DATA_DIR: z.string().optional().meta({
    default: "`.data` (relative to where the server starts)",
    description:
      "Folder of the embedded database, the only place the server writes. Locked to one process. It must be writable by the server's user: on a read-only filesystem, point it at a volume.",
  }),
  DATABASE_POOL_SIZE: wholeNumber("DATABASE_POOL_SIZE", 10, { max: 1000 }).meta({ description: "PostgreSQL connections per instance." }),
  DATABASE_CONNECT_TIMEOUT_MS: wholeNumber("DATABASE_CONNECT_TIMEOUT_MS", 5_000, { max: 120_000 }).meta({
    description: "Time to open a connection; past it, 503 `database_unavailable`.",
  }),
  DATABASE_STATEMENT_TIMEOUT_MS: wholeNumber("DATABASE_STATEMENT_TIMEOUT_MS", 5_000, { max: 600_000 }).meta({
    description:
      "Longest statement (`statement_timeout`, a client-side timeout a second later, TCP keepalive): a silent partition answers 503 instead of hanging.",
  }),
  AUDIT_RETENTION_DAYS: days("AUDIT_RETENTION_DAYS", 400, "How long Activity entries, and the day rollups' Data changes, are kept."),
  RETENTION_MAIL_BODY_DAYS: days(
    "RETENTION_MAIL_BODY_DAYS",
    30,
    "Days a sent message keeps its body (HTML and text) on the Outbox and Runs pages; the daily purge then erases it and keeps the row. At most `RETENTION_DELIVERIES_DAYS`.",
  ),
  RETENTION_DELIVERIES_DAYS: days(
    "RETENTION_DELIVERIES_DAYS",
    90,
    "Days a delivery (an e-mail's row in the Outbox, whatever its outcome) is kept.",
  ),
  RETENTION_NOTIFICATIONS_DAYS: days(
    "RETENTION_NOTIFICATIONS_DAYS",
    400,
    "Days inbox notifications (with who read them) and resolved alert episodes are kept.",
  ),
  RETENTION_WEBHOOK_ATTEMPTS_DAYS: days(
    "RETENTION_WEBHOOK_ATTEMPTS_DAYS",
    30,
    "Days each webhook attempt's record is kept. At most `RETENTION_NOTIFICATIONS_DAYS`.",
  ),
  RETENTION_GRANT_NOTICES_DAYS: days("RETENTION_GRANT_NOTICES_DAYS", 90, "Days a notice about a grant (ended, refused) is kept."),
  RETENTION_DELETED_RULES_DAYS: days(
    "RETENTION_DELETED_RULES_DAYS",
    30,
    "Days a deleted alert rule is kept (for Activity's links) before the purge removes it with its episodes.",
  ),
});

export const server = group("Server", "How the server listens, which proxies it trusts and how it stops.", {
  NODE_ENV: z.string().optional().meta({
    default: "`production` for the production start and check-config",
    description: "Set by the launchers (`development` for `npm run dev`); production rules apply unless it says otherwise.",
  }),
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
    })
    .meta({
      default: "from each request",
      production: "required with `SMTP_URL` or alert webhooks",
      description:
        "Public origin (`https://dashboard.example.com`): the same-origin check accepts it, and e-mails and webhook payloads link to it. Without it, the origin is the host the browser used (from `X-Forwarded-Host` behind a trusted proxy).",
    }),
  HOST: host("HOST", "127.0.0.1").meta({ description: "Address the server listens on; `0.0.0.0` for every interface (in a container)." }),
  PORT: wholeNumber("PORT", 3000, { max: 65_535 }).meta({ description: "Dashboard port." }),
  TRUST_PROXY_HOPS: wholeNumber("TRUST_PROXY_HOPS", 0, { min: 0, max: 10 }).meta({
    production: "`1` behind one proxy",
    description:
      "How many reverse proxies in front of the dashboard are trusted for `X-Forwarded-For`, `-Proto`, `-Host` and `X-Request-Id`. With `0` the client is the socket's peer and forwarding headers are ignored.",
  }),
  SERVER_HEADERS_TIMEOUT_MS: wholeNumber("SERVER_HEADERS_TIMEOUT_MS", 20_000).meta({
    description: "Time a client has to send the request headers; past it, 408.",
  }),
  SERVER_REQUEST_TIMEOUT_MS: wholeNumber("SERVER_REQUEST_TIMEOUT_MS", 60_000).meta({
    description: "Time a client has to send the whole request; past it, 408. At least `SERVER_HEADERS_TIMEOUT_MS`.",
  }),
  SERVER_KEEP_ALIVE_TIMEOUT_MS: wholeNumber("SERVER_KEEP_ALIVE_TIMEOUT_MS", 65_000).meta({
    description: "How long an idle keep-alive connection stays open; above the 60 s idle timeout of common proxies.",
  }),
  SHUTDOWN_GRACE_MS: optionalWholeNumber("SHUTDOWN_GRACE_MS", { min: 0, max: 3_600_000 }).meta({
    default: "`UPSTREAM_TIMEOUT_MS` + 5000 (more when `WEBHOOK_TIMEOUT_MS` or `SMTP_TIMEOUT_MS` + 500 is more)",
    description:
      "On SIGTERM or SIGINT, how long requests and background runs in flight may take to finish (the worker claims nothing more at once). Refused below `UPSTREAM_TIMEOUT_MS` + 5000, and below `WEBHOOK_TIMEOUT_MS` + 500 or (with `SMTP_URL`) `SMTP_TIMEOUT_MS` + 500: a restart would cut an action or a send mid-call into an unknown outcome.",
  }),
});

export const observability = group("Observability", "Logs on stdout, Prometheus metrics on a port of their own, OpenTelemetry traces.", {
  LOG_LEVEL: oneOf("LOG_LEVEL", ["debug", "info", "warn", "error"] as const, "info").meta({
    description: "`debug`, `info`, `warn` or `error`.",
  }),
  LOG_PROBES: oneOf("LOG_PROBES", ["all", "failures", "none"] as const, "failures").meta({
    description: "Log lines for health probes: `all`, `failures` (non-2xx only) or `none`.",
  }),
  METRICS_PORT: optionalWholeNumber("METRICS_PORT", { max: 65_535 }).meta({
    default: "off",
    production: "recommended",
    description: "Port of the Prometheus endpoint `/metrics`, never served on the public port.",
  }),
  METRICS_HOST: host("METRICS_HOST", "127.0.0.1").meta({ description: "Address of the metrics port." }),
  OTEL_EXPORTER_OTLP_ENDPOINT: z
    .string()
    .optional()
    .transform((raw, context) => (raw ? httpUrl("OTEL_EXPORTER_OTLP_ENDPOINT", raw, context)?.toString().replace(/\/$/, "") : undefined))
    .meta({ default: "off", description: "OTLP/HTTP collector (`http://collector:4318`): traces are exported there." }),
  OTEL_SERVICE_NAME: z
    .string()
    .optional()
    .meta({ default: "`store-analytics-dashboard`", description: "Service name on the exported spans." }),
});
