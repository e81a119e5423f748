import "server-only";
import { z } from "zod";
import { flag, group, oneOf, onOff, optionalWholeNumber, safeJson, secretList, urlWithCredentials, wholeNumber } from "./fields";
import { MIN_SECRET_LENGTH } from "./groups";

/** The settings of the work done while nobody is signed in, of the day rollups and of the demo (groups.ts has the others). */

const demoKeysSchema = z.array(z.strictObject({ key: z.string().min(1), label: z.string(), state: z.string() }));

export const background = group(
  "Grants, e-mail, jobs and webhooks",
  "Work done while nobody is signed in: digests and alerts read the upstream with a granted key.",
  {
    DELEGATION_KEY: secretList("DELEGATION_KEY", "key", MIN_SECRET_LENGTH).meta({
      default: "generated per process (demo and development only)",
      production: "for digests and alerts",
      description:
        "Master keys that wrap the granted API keys, each at least 32 characters, separated by commas, newest first: the newest seals, all open. Never stored in the database. Unset in production: grants are off. `npm run check-config` names the master key ids of grants it cannot open.",
    }),
    DELEGATION_TTL_DAYS: wholeNumber("DELEGATION_TTL_DAYS", 90, { max: 3650 }).meta({
      description: "A grant's lifetime; signing in with its key renews it.",
    }),
    SMTP_URL: urlWithCredentials(/^smtps?:$/, "SMTP_URL must be an SMTP URL: smtp://user:password@host:587 or smtps://…:465.").meta({
      default: "none: messages go to the in-app Outbox",
      production: "for e-mail (then `APP_ORIGIN` too)",
      description:
        "SMTP server (`smtp://user:password@host:587`, `smtps://…:465`). `npm run check-config` greets it (EHLO) without sending.",
    }),
    SMTP_TIMEOUT_MS: wholeNumber("SMTP_TIMEOUT_MS", 10_000, { max: 20_000 }).meta({
      description:
        "Longest wait on the SMTP server: to connect, to greet, and for each answer. With `SMTP_URL` set, it plus half a second must fit inside `SHUTDOWN_GRACE_MS` (checked at start), so a stop lets a send in flight finish.",
    }),
    MAIL_FROM: z.string().optional().meta({
      default: "`Store analytics <digests@dashboard.invalid>`",
      production: "recommended",
      description: "Sender of digests and notices.",
    }),
    BACKGROUND_JOBS: oneOf("BACKGROUND_JOBS", ["on", "off"] as const, "on").meta({
      description: "`off` stops this instance from running background jobs (it still serves pages and enqueues).",
    }),
    JOBS_LEASE_SECONDS: wholeNumber("JOBS_LEASE_SECONDS", 30, { min: 5, max: 600 }).meta({
      description: "How long a job's claim lasts without its worker's heartbeat: a job whose instance died runs again after at most this.",
    }),
    JOBS_CONCURRENCY: wholeNumber("JOBS_CONCURRENCY", 4, { max: 64 }).meta({ description: "Jobs one instance runs at once." }),
    JOBS_RUN_DEADLINE_SECONDS: wholeNumber("JOBS_RUN_DEADLINE_SECONDS", 900, { min: 10, max: 86_400 }).meta({
      description:
        "How long one run of a job may take. Its lease is not renewed past it; a run still going is abandoned (its handler aborted, the run recorded as abandoned on the Runs page) and retried per the job's attempts. Must be more than `JOBS_LEASE_SECONDS`, and at least `UPSTREAM_TIMEOUT_MS` plus the longest send timeout (`WEBHOOK_TIMEOUT_MS`, or `SMTP_TIMEOUT_MS` with `SMTP_URL`) plus half a second.",
    }),
    JOBS_TENANT_CONCURRENCY: wholeNumber("JOBS_TENANT_CONCURRENCY", 2, { max: 1000 }).meta({
      description:
        "Jobs one organization (or a store of none; the dashboard's own jobs count as one more) is sure to get at once across all instances; beyond it, only a worker's spare slots, never its last free one, so one organization's burst never holds every worker.",
    }),
    WEBHOOK_ALLOW_PRIVATE: onOff("WEBHOOK_ALLOW_PRIVATE").meta({
      default: "off (on in the demo)",
      description: "`1` lets alert webhooks reach loopback, private and link-local addresses; `0` refuses them even in the demo.",
    }),
    WEBHOOK_TIMEOUT_MS: wholeNumber("WEBHOOK_TIMEOUT_MS", 5_000, { max: 60_000 }).meta({
      description: "Time one webhook attempt may take, connection and answer included.",
    }),
    ALERT_MAIL_PER_HOUR: wholeNumber("ALERT_MAIL_PER_HOUR", 50, { max: 100_000 }).meta({
      description:
        'Alert e-mails one store may send in a clock hour, whatever rules send them. Past it the e-mails are held back; after the hour each address held back gets one summary ("12 alerts held back, see the inbox"), at most this many summaries, and the inbox keeps every alert.',
    }),
  },
);

export const rollups = group(
  "Day rollups",
  "What a read of a store's rows leaves behind in the database, so later views read only missing or stale days ([rollups](decisions/rollups.md)).",
  {
    ROLLUPS: oneOf("ROLLUPS", ["auto", "on", "off"] as const, "auto").meta({
      description:
        "`on`, `off`, or `auto`: on with `DATABASE_URL`, off on the embedded database, where writing the rollups costs more than reading the upstream again.",
    }),
    ROLLUP_FRESH_DAYS: wholeNumber("ROLLUP_FRESH_DAYS", 3, { min: 0, max: 366 }).meta({
      description: "Today and this many days before it are always read from the upstream.",
    }),
    ROLLUP_REVALIDATE_SECONDS: wholeNumber("ROLLUP_REVALIDATE_SECONDS", 86_400, { min: 1, max: 31_536_000 }).meta({
      description: "An older day is read again once its rollup is this old; a changed closed day is recorded as restated.",
    }),
    ROLLUP_BUDGET_MB: wholeNumber("ROLLUP_BUDGET_MB", 2_048, { min: 1, max: 1_048_576 }).meta({
      description: "The deployment's rollup size budget; the daily purge evicts the least recently used store-months first.",
    }),
    ROLLUP_FILL_CONCURRENCY: wholeNumber("ROLLUP_FILL_CONCURRENCY", 1, { min: 1, max: 16 }).meta({
      description: "Rollup fills (one store, attribution and month each) running at once on an instance, besides at most one per store.",
    }),
    ROLLUP_RETENTION_DAYS: wholeNumber("ROLLUP_RETENTION_DAYS", 30, { min: 1, max: 36_500 }).meta({
      description:
        "Days a store's rollups are kept once no key reaches it (no session holding one of its keys, no open grant); the daily retention purge then removes them.",
    }),
  },
);

export const demo = group(
  "Demo (`npm start`)",
  "Read by `npm start` when it runs the demo upstream; the last two it sets for the dashboard itself.",
  {
    DEMO_UPSTREAM_PORT: wholeNumber("DEMO_UPSTREAM_PORT", 4010, { max: 65_535 }).meta({ description: "Port of the demo upstream." }),
    DEMO_UPSTREAM_SEED: optionalWholeNumber("DEMO_UPSTREAM_SEED", { min: 0 }).meta({
      default: "`42`",
      description: "Seed of the demo data.",
    }),
    DEMO_UPSTREAM_SCALE: optionalWholeNumber("DEMO_UPSTREAM_SCALE", { max: 1000 }).meta({
      default: "`1`",
      description: "Grows products, ads and rows (`35` gives over 1,000,000 rows for a 365-day products request).",
    }),
    DEMO_UPSTREAM_CONTROL: flag("DEMO_UPSTREAM_CONTROL").meta({
      description: "`1` enables the demo upstream's `/__control` endpoints, used by the end-to-end tests.",
    }),
    DEMO_UPSTREAM_ODD: flag("DEMO_UPSTREAM_ODD").meta({
      description: "`1` also serves the odd store and offers its key on the sign-in page.",
    }),
    // The demo upstream checks each rule itself; here only that it is a JSON array, so a typo stops npm start early.
    DEMO_UPSTREAM_ANOMALIES: z
      .string()
      .optional()
      .refine((raw) => raw === undefined || raw === "" || Array.isArray(safeJson(raw)), {
        message: "DEMO_UPSTREAM_ANOMALIES must be a JSON array of anomaly rules.",
      })
      .meta({
        default: "none",
        description: "A JSON array of anomaly rules: a channel's sales drop to near zero from a given day, to see alerts fire.",
      }),
    DEMO_MODE: flag("DEMO_MODE").meta({ description: "Set to `1` by `npm start` when it runs the demo upstream." }),
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
      })
      .meta({ default: "none", description: "Set by `npm start`: the demo keys the sign-in page offers by label." }),
  },
);
