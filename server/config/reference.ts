import "server-only";

/**
 * The settings reference: what each setting means, its default and what production asks of it.
 * `npm run check-config -- --format markdown` prints it; docs/configuration.md is that output,
 * and a test keeps the two equal and this list equal to the names the schemas read.
 */

interface SettingDoc {
  name: string;
  /** What it is when unset. */
  fallback: string;
  /** What production asks ("" when nothing). */
  production: string;
  meaning: string;
  /** Shown masked by check-config. */
  secret?: boolean;
}

interface SettingGroup {
  title: string;
  intro: string;
  settings: SettingDoc[];
}

const SETTING_GROUPS: SettingGroup[] = [
  {
    title: "Upstream",
    intro: "The API the dashboard reads and acts on.",
    settings: [
      {
        name: "UPSTREAM_BASE_URL",
        fallback: "the demo upstream (`npm start`)",
        production: "required",
        meaning: "Upstream base URL, ending in `/v1`. When unset, `npm start` runs the demo upstream and sets it.",
      },
      {
        name: "UPSTREAM_TIMEOUT_MS",
        fallback: "`15000`",
        production: "",
        meaning: "Deadline for one upstream call, body included; past it the dashboard answers 504.",
      },
      {
        name: "ROW_WORKERS",
        fallback: "`on`",
        production: "",
        meaning:
          "`on`: the product rows of a view are parsed and summed on a worker thread, so other requests are not held up behind a long read; `off`: on the event loop.",
      },
    ],
  },
  {
    title: "Sessions",
    intro: "The encrypted session cookie and how long a sign-in lasts.",
    settings: [
      {
        name: "SESSION_SECRET",
        fallback: "random per start (demo, development)",
        production: "required",
        secret: true,
        meaning:
          "Secret that encrypts the session cookie, at least 32 characters. Several, separated by commas, newest first, allow rotation: the newest seals, all unseal. Every instance needs the same list (readiness shows a fingerprint of the newest to compare).",
      },
      {
        name: "SESSION_TTL_SECONDS",
        fallback: "`28800` (8 h)",
        production: "",
        meaning: "Absolute session lifetime, checked against each session's row: lowering it ends sessions already issued.",
      },
      { name: "SESSION_IDLE_SECONDS", fallback: "`3600` (1 h)", production: "", meaning: "A session unused this long ends." },
      {
        name: "SESSION_COOKIE_SECURE",
        fallback: "from the request",
        production: "",
        meaning:
          "By default the cookie is Secure (and named `__Host-session`) exactly when the browser came over HTTPS, directly or through a proxy trusted by `TRUST_PROXY_HOPS`; HSTS is sent then too. `1` forces Secure, `0` turns it off.",
      },
      {
        name: "KEY_RECHECK_SECONDS",
        fallback: "`120`",
        production: "",
        meaning:
          "How long what a key reaches (its organizations and stores) is trusted before it is asked again; a key revoked upstream stops reading the dashboard's own data within this.",
      },
    ],
  },
  {
    title: "Database",
    intro: "Where the dashboard keeps its durable state (sessions, actions, views, grants, jobs).",
    settings: [
      {
        name: "DATABASE_URL",
        fallback: "embedded PGlite in `DATA_DIR`",
        production: "required (or `EMBEDDED_DATABASE=1`)",
        secret: true,
        meaning:
          "PostgreSQL URL (`postgres://user:password@host:5432/dbname`). Unset: an embedded PostgreSQL (PGlite) in `DATA_DIR`, for one instance.",
      },
      {
        name: "EMBEDDED_DATABASE",
        fallback: "off",
        production: "",
        meaning: "`1` allows production on the embedded database (one instance only, stated in readiness).",
      },
      {
        name: "DATA_DIR",
        fallback: "`.data` (relative to where the server starts)",
        production: "",
        meaning:
          "Folder of the embedded database, the only place the server writes. Locked to one process. It must be writable by the server's user: on a read-only filesystem, point it at a volume.",
      },
      { name: "DATABASE_POOL_SIZE", fallback: "`10`", production: "", meaning: "PostgreSQL connections per instance." },
      {
        name: "DATABASE_CONNECT_TIMEOUT_MS",
        fallback: "`5000`",
        production: "",
        meaning: "Time to open a connection; past it, 503 `database_unavailable`.",
      },
      {
        name: "DATABASE_STATEMENT_TIMEOUT_MS",
        fallback: "`5000`",
        production: "",
        meaning:
          "Longest statement (`statement_timeout`, a client-side timeout a second later, TCP keepalive): a silent partition answers 503 instead of hanging.",
      },
      {
        name: "AUDIT_RETENTION_DAYS",
        fallback: "`400`",
        production: "",
        meaning: "How long Activity entries, and the day rollups' Data changes, are kept.",
      },
      {
        name: "RETENTION_MAIL_BODY_DAYS",
        fallback: "`30`",
        production: "",
        meaning:
          "Days a sent message keeps its body (HTML and text) on the Outbox and Runs pages; the daily purge then erases it and keeps the row. At most `RETENTION_DELIVERIES_DAYS`.",
      },
      {
        name: "RETENTION_DELIVERIES_DAYS",
        fallback: "`90`",
        production: "",
        meaning: "Days a delivery (an e-mail's row in the Outbox, whatever its outcome) is kept.",
      },
      {
        name: "RETENTION_NOTIFICATIONS_DAYS",
        fallback: "`400`",
        production: "",
        meaning: "Days inbox notifications (with who read them) and resolved alert episodes are kept.",
      },
      {
        name: "RETENTION_WEBHOOK_ATTEMPTS_DAYS",
        fallback: "`30`",
        production: "",
        meaning: "Days each webhook attempt's record is kept. At most `RETENTION_NOTIFICATIONS_DAYS`.",
      },
      {
        name: "RETENTION_GRANT_NOTICES_DAYS",
        fallback: "`90`",
        production: "",
        meaning: "Days a notice about a grant (ended, refused) is kept.",
      },
      {
        name: "RETENTION_DELETED_RULES_DAYS",
        fallback: "`30`",
        production: "",
        meaning: "Days a deleted alert rule is kept (for Activity's links) before the purge removes it with its episodes.",
      },
    ],
  },
  {
    title: "Server",
    intro: "How the server listens, which proxies it trusts and how it stops.",
    settings: [
      {
        name: "NODE_ENV",
        fallback: "`production` for the production start and check-config",
        production: "",
        meaning: "Set by the launchers (`development` for `npm run dev`); production rules apply unless it says otherwise.",
      },
      {
        name: "APP_ORIGIN",
        fallback: "from each request",
        production: "required with `SMTP_URL` or alert webhooks",
        meaning:
          "Public origin (`https://dashboard.example.com`): the same-origin check accepts it, and e-mails and webhook payloads link to it. Without it, the origin is the host the browser used (from `X-Forwarded-Host` behind a trusted proxy).",
      },
      {
        name: "HOST",
        fallback: "`127.0.0.1`",
        production: "",
        meaning: "Address the server listens on; `0.0.0.0` for every interface (in a container).",
      },
      { name: "PORT", fallback: "`3000`", production: "", meaning: "Dashboard port." },
      {
        name: "TRUST_PROXY_HOPS",
        fallback: "`0`",
        production: "`1` behind one proxy",
        meaning:
          "How many reverse proxies in front of the dashboard are trusted for `X-Forwarded-For`, `-Proto`, `-Host` and `X-Request-Id`. With `0` the client is the socket's peer and forwarding headers are ignored.",
      },
      {
        name: "SERVER_HEADERS_TIMEOUT_MS",
        fallback: "`20000`",
        production: "",
        meaning: "Time a client has to send the request headers; past it, 408.",
      },
      {
        name: "SERVER_REQUEST_TIMEOUT_MS",
        fallback: "`60000`",
        production: "",
        meaning: "Time a client has to send the whole request; past it, 408. At least `SERVER_HEADERS_TIMEOUT_MS`.",
      },
      {
        name: "SERVER_KEEP_ALIVE_TIMEOUT_MS",
        fallback: "`65000`",
        production: "",
        meaning: "How long an idle keep-alive connection stays open; above the 60 s idle timeout of common proxies.",
      },
      {
        name: "SHUTDOWN_GRACE_MS",
        fallback: "`UPSTREAM_TIMEOUT_MS` + 5000 (more when `WEBHOOK_TIMEOUT_MS` or `SMTP_TIMEOUT_MS` + 500 is more)",
        production: "",
        meaning:
          "On SIGTERM or SIGINT, how long requests and background runs in flight may take to finish (the worker claims nothing more at once). Refused below `UPSTREAM_TIMEOUT_MS` + 5000, and below `WEBHOOK_TIMEOUT_MS` + 500 or (with `SMTP_URL`) `SMTP_TIMEOUT_MS` + 500: a restart would cut an action or a send mid-call into an unknown outcome.",
      },
    ],
  },
  {
    title: "Observability",
    intro: "Logs on stdout, Prometheus metrics on a port of their own, OpenTelemetry traces.",
    settings: [
      { name: "LOG_LEVEL", fallback: "`info`", production: "", meaning: "`debug`, `info`, `warn` or `error`." },
      {
        name: "LOG_PROBES",
        fallback: "`failures`",
        production: "",
        meaning: "Log lines for health probes: `all`, `failures` (non-2xx only) or `none`.",
      },
      {
        name: "METRICS_PORT",
        fallback: "off",
        production: "recommended",
        meaning: "Port of the Prometheus endpoint `/metrics`, never served on the public port.",
      },
      { name: "METRICS_HOST", fallback: "`127.0.0.1`", production: "", meaning: "Address of the metrics port." },
      {
        name: "OTEL_EXPORTER_OTLP_ENDPOINT",
        fallback: "off",
        production: "",
        meaning: "OTLP/HTTP collector (`http://collector:4318`): traces are exported there.",
      },
      {
        name: "OTEL_SERVICE_NAME",
        fallback: "`store-analytics-dashboard`",
        production: "",
        meaning: "Service name on the exported spans.",
      },
    ],
  },
  {
    title: "Grants, e-mail, jobs and webhooks",
    intro: "Work done while nobody is signed in: digests and alerts read the upstream with a granted key.",
    settings: [
      {
        name: "DELEGATION_KEY",
        fallback: "generated per process (demo and development only)",
        production: "for digests and alerts",
        secret: true,
        meaning:
          "Master keys that wrap the granted API keys, each at least 32 characters, separated by commas, newest first: the newest seals, all open. Never stored in the database. Unset in production: grants are off. `npm run check-config` names the master key ids of grants it cannot open.",
      },
      { name: "DELEGATION_TTL_DAYS", fallback: "`90`", production: "", meaning: "A grant's lifetime; signing in with its key renews it." },
      {
        name: "SMTP_URL",
        fallback: "none: messages go to the in-app Outbox",
        production: "for e-mail (then `APP_ORIGIN` too)",
        secret: true,
        meaning: "SMTP server (`smtp://user:password@host:587`, `smtps://…:465`). `npm run check-config` greets it (EHLO) without sending.",
      },
      {
        name: "SMTP_TIMEOUT_MS",
        fallback: "`10000`",
        production: "",
        meaning:
          "Longest wait on the SMTP server: to connect, to greet, and for each answer (at most `20000`). With `SMTP_URL` set, it plus half a second must fit inside `SHUTDOWN_GRACE_MS` (checked at start), so a stop lets a send in flight finish.",
      },
      {
        name: "MAIL_FROM",
        fallback: "`Store analytics <digests@dashboard.invalid>`",
        production: "recommended",
        meaning: "Sender of digests and notices.",
      },
      {
        name: "BACKGROUND_JOBS",
        fallback: "`on`",
        production: "",
        meaning: "`off` stops this instance from running background jobs (it still serves pages and enqueues).",
      },
      {
        name: "JOBS_LEASE_SECONDS",
        fallback: "`30`",
        production: "",
        meaning: "How long a job's claim lasts without its worker's heartbeat: a job whose instance died runs again after at most this.",
      },
      { name: "JOBS_CONCURRENCY", fallback: "`4`", production: "", meaning: "Jobs one instance runs at once." },
      {
        name: "JOBS_RUN_DEADLINE_SECONDS",
        fallback: "`900`",
        production: "",
        meaning:
          "How long one run of a job may take (10 to 86400). Its lease is not renewed past it; a run still going is abandoned (its handler aborted, the run recorded as abandoned on the Runs page) and retried per the job's attempts. Must be more than `JOBS_LEASE_SECONDS`, and at least `UPSTREAM_TIMEOUT_MS` plus the longest send timeout (`WEBHOOK_TIMEOUT_MS`, or `SMTP_TIMEOUT_MS` with `SMTP_URL`) plus half a second.",
      },
      {
        name: "JOBS_TENANT_CONCURRENCY",
        fallback: "`2`",
        production: "",
        meaning:
          "Jobs one organization (or a store of none; the dashboard's own jobs count as one more) is sure to get at once across all instances; beyond it, only a worker's spare slots, never its last free one, so one organization's burst never holds every worker.",
      },
      {
        name: "WEBHOOK_ALLOW_PRIVATE",
        fallback: "off (on in the demo)",
        production: "",
        meaning: "`1` lets alert webhooks reach loopback, private and link-local addresses; `0` refuses them even in the demo.",
      },
      {
        name: "WEBHOOK_TIMEOUT_MS",
        fallback: "`5000`",
        production: "",
        meaning: "Time one webhook attempt may take, connection and answer included.",
      },
      {
        name: "ALERT_MAIL_PER_HOUR",
        fallback: "`50`",
        production: "",
        meaning:
          'Alert e-mails one store may send in a clock hour, whatever rules send them (1 to 100000). Past it the e-mails are held back; after the hour each address held back gets one summary ("12 alerts held back, see the inbox"), at most this many summaries, and the inbox keeps every alert.',
      },
    ],
  },
  {
    title: "Day rollups",
    intro:
      "What a read of a store's rows leaves behind in the database, so later views read only missing or stale days ([rollups](decisions/rollups.md)).",
    settings: [
      {
        name: "ROLLUPS",
        fallback: "`auto`",
        production: "",
        meaning:
          "`on`, `off`, or `auto`: on with `DATABASE_URL`, off on the embedded database, where writing the rollups costs more than reading the upstream again.",
      },
      {
        name: "ROLLUP_FRESH_DAYS",
        fallback: "`3`",
        production: "",
        meaning: "Today and this many days before it are always read from the upstream (0 to 366).",
      },
      {
        name: "ROLLUP_REVALIDATE_SECONDS",
        fallback: "`86400`",
        production: "",
        meaning: "An older day is read again once its rollup is this old; a changed closed day is recorded as restated.",
      },
      {
        name: "ROLLUP_BUDGET_MB",
        fallback: "`2048`",
        production: "",
        meaning: "The deployment's rollup size budget; the least recently used store-days are evicted first.",
      },
      {
        name: "ROLLUP_FILL_CONCURRENCY",
        fallback: "`1`",
        production: "",
        meaning:
          "Rollup fills (one store, attribution and month each) running at once on an instance, besides at most one per store (1 to 16).",
      },
      {
        name: "ROLLUP_RETENTION_DAYS",
        fallback: "`30`",
        production: "",
        meaning:
          "Days a store's rollups are kept once no key reaches it (no session holding one of its keys, no open grant); the daily retention purge then removes them.",
      },
    ],
  },
  {
    title: "Demo (`npm start`)",
    intro: "Read by `npm start` when it runs the demo upstream; the last two it sets for the dashboard itself.",
    settings: [
      { name: "DEMO_UPSTREAM_PORT", fallback: "`4010`", production: "", meaning: "Port of the demo upstream." },
      { name: "DEMO_UPSTREAM_SEED", fallback: "`42`", production: "", meaning: "Seed of the demo data." },
      {
        name: "DEMO_UPSTREAM_SCALE",
        fallback: "`1`",
        production: "",
        meaning: "Grows products, ads and rows (`35` gives over 1,000,000 rows for a 365-day products request).",
      },
      {
        name: "DEMO_UPSTREAM_CONTROL",
        fallback: "off",
        production: "",
        meaning: "`1` enables the demo upstream's `/__control` endpoints, used by the end-to-end tests.",
      },
      {
        name: "DEMO_UPSTREAM_ODD",
        fallback: "off",
        production: "",
        meaning: "`1` also serves the odd store and offers its key on the sign-in page.",
      },
      {
        name: "DEMO_UPSTREAM_ANOMALIES",
        fallback: "none",
        production: "",
        meaning: "A JSON array of anomaly rules: a channel's sales drop to near zero from a given day, to see alerts fire.",
      },
      { name: "DEMO_MODE", fallback: "off", production: "", meaning: "Set to `1` by `npm start` when it runs the demo upstream." },
      {
        name: "DEMO_KEYS",
        fallback: "none",
        production: "",
        meaning: "Set by `npm start`: the demo keys the sign-in page offers by label.",
      },
    ],
  },
];

export const SETTING_DOCS: SettingDoc[] = SETTING_GROUPS.flatMap((group) => group.settings);

const cell = (text: string) => text.replaceAll("|", "\\|");

/** The settings reference as Markdown: docs/configuration.md is exactly this. */
export function settingsMarkdown(): string {
  const lines = [
    "# Configuration",
    "",
    "<!-- Generated by `npm run check-config -- --format markdown`: edit server/config/reference.ts, not this file. -->",
    "",
    "Every setting is read from the environment by one module (`server/config/settings.ts`) and checked",
    "at start by one schema: the server refuses to start with one line per problem, naming the setting.",
    "`npm run check-config` runs the same checks without starting anything, then tries what the settings",
    "name (the database and its migrations, roles and row-level security, the grants `DELEGATION_KEY`",
    "opens, the SMTP server, the upstream), each within 3 s, and prints the effective settings with",
    "secrets masked. It exits 1 with one line per problem. `--offline` skips the connections.",
  ];
  for (const group of SETTING_GROUPS) {
    lines.push("", `## ${group.title}`, "", group.intro, "", "| Setting | Default | Production | Meaning |", "|---|---|---|---|");
    for (const s of group.settings) lines.push(`| \`${s.name}\` | ${cell(s.fallback)} | ${cell(s.production)} | ${cell(s.meaning)} |`);
  }
  return `${lines.join("\n")}\n`;
}
