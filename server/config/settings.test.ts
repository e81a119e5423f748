import { afterEach, describe, expect, it, vi } from "vitest";
import { secretsFrom } from "@/server/auth/secrets";
import { DEFAULT_RETENTION } from "@/test/retention";
import { settingProblems, settings } from "./settings";

const newest = "n".repeat(40);
const older = "o".repeat(40);
const UPSTREAM = "https://api.example.com/v1";

/** A production process with a real upstream, PostgreSQL and a secret, changed by `changes`. */
function production(changes: Record<string, string | undefined> = {}) {
  const base: Record<string, string | undefined> = {
    NODE_ENV: "production",
    DEMO_MODE: undefined,
    UPSTREAM_BASE_URL: UPSTREAM,
    SESSION_SECRET: newest,
    DATABASE_URL: "postgres://dash:pw@db.internal:5432/dashboard",
    EMBEDDED_DATABASE: undefined,
  };
  for (const [name, value] of Object.entries({ ...base, ...changes })) vi.stubEnv(name, value);
}

afterEach(() => vi.unstubAllEnvs());

describe("the settings", () => {
  it("accept a complete production configuration", () => {
    production();
    expect(settingProblems()).toEqual([]);
    expect(settings()).toMatchObject({ production: true, demo: false, upstream: { baseUrl: UPSTREAM, timeoutMs: 15_000 } });
  });

  it("read the day rollup settings, with their defaults, and refuse values out of range by name", () => {
    production({
      ROLLUPS: undefined,
      ROLLUP_FRESH_DAYS: undefined,
      ROLLUP_REVALIDATE_SECONDS: undefined,
      ROLLUP_BUDGET_MB: undefined,
      ROLLUP_FILL_CONCURRENCY: undefined,
    });
    expect(settings().rollups).toMatchObject({
      enabled: true,
      freshDays: 3,
      revalidateSeconds: 86_400,
      budgetBytes: 2048 * 1024 * 1024,
      fillConcurrency: 1,
    });
    production({ DATABASE_URL: undefined, EMBEDDED_DATABASE: "1" });
    expect(settings().rollups.enabled).toBe(false);
    production({ DATABASE_URL: undefined, EMBEDDED_DATABASE: "1", ROLLUPS: "on" });
    expect(settings().rollups.enabled).toBe(true);
    production({ ROLLUPS: "off", ROLLUP_FRESH_DAYS: "0", ROLLUP_REVALIDATE_SECONDS: "3600", ROLLUP_BUDGET_MB: "10" });
    expect(settings().rollups).toMatchObject({ enabled: false, freshDays: 0, revalidateSeconds: 3600, budgetBytes: 10 * 1024 * 1024 });
    production({ ROLLUPS: "maybe" });
    expect(settingProblems()).toEqual([expect.stringMatching(/ROLLUPS/)]);
    production({ ROLLUPS: undefined, ROLLUP_BUDGET_MB: "0" });
    expect(settingProblems()).toEqual([expect.stringMatching(/ROLLUP_BUDGET_MB/)]);
    production({ ROLLUP_BUDGET_MB: undefined, ROLLUP_FILL_CONCURRENCY: "4" });
    expect(settings().rollups.fillConcurrency).toBe(4);
    for (const wrong of ["0", "17", "two"]) {
      production({ ROLLUP_FILL_CONCURRENCY: wrong });
      expect(settingProblems()).toEqual([expect.stringMatching(/ROLLUP_FILL_CONCURRENCY/)]);
    }
  });

  it("take retention lifetimes in days, a message's body going before its row", () => {
    production();
    expect(settings().retention).toEqual(DEFAULT_RETENTION);
    production({ RETENTION_MAIL_BODY_DAYS: "100", RETENTION_WEBHOOK_ATTEMPTS_DAYS: "500" });
    expect(settingProblems()).toEqual([
      "RETENTION_MAIL_BODY_DAYS (100) must be at most RETENTION_DELIVERIES_DAYS (90).",
      "RETENTION_WEBHOOK_ATTEMPTS_DAYS (500) must be at most RETENTION_NOTIFICATIONS_DAYS (400).",
    ]);
  });

  it("hold a send in flight within the stop's grace: SMTP and webhook timeouts must fit inside SHUTDOWN_GRACE_MS", () => {
    production({
      SMTP_URL: "smtp://mail.internal:587",
      APP_ORIGIN: "https://dashboard.example.com",
      SMTP_TIMEOUT_MS: "20000",
      WEBHOOK_TIMEOUT_MS: "30000",
      SHUTDOWN_GRACE_MS: "20000",
    });
    expect(settingProblems()).toEqual([
      "SHUTDOWN_GRACE_MS (20000) must be at least WEBHOOK_TIMEOUT_MS + 500 (30500): a stop would otherwise cut a send in flight into an unknown outcome.",
      "SHUTDOWN_GRACE_MS (20000) must be at least SMTP_TIMEOUT_MS + 500 (20500): a stop would otherwise cut a send in flight into an unknown outcome.",
    ]);
    // Unset, the grace is long enough for each of them.
    production({
      SMTP_URL: "smtp://mail.internal:587",
      APP_ORIGIN: "https://dashboard.example.com",
      SMTP_TIMEOUT_MS: undefined,
      WEBHOOK_TIMEOUT_MS: "30000",
      SHUTDOWN_GRACE_MS: undefined,
    });
    expect(settingProblems()).toEqual([]);
    expect(settings()).toMatchObject({ server: { shutdownGraceMs: 30_500 }, mail: { timeoutMs: 10_000 } });
  });

  it("give a run a deadline longer than its lease, with room for one upstream read and one send", () => {
    production({ JOBS_RUN_DEADLINE_SECONDS: undefined, JOBS_LEASE_SECONDS: undefined });
    expect(settings().jobs).toMatchObject({ leaseSeconds: 30, runDeadlineSeconds: 900 });
    production({ JOBS_RUN_DEADLINE_SECONDS: "30" });
    expect(settingProblems()).toEqual(["JOBS_RUN_DEADLINE_SECONDS (30) must be more than JOBS_LEASE_SECONDS (30)."]);
    production({
      JOBS_RUN_DEADLINE_SECONDS: "40",
      JOBS_LEASE_SECONDS: "10",
      SMTP_URL: "smtp://mail.internal:587",
      APP_ORIGIN: "https://dashboard.example.com",
      SMTP_TIMEOUT_MS: "20000",
      UPSTREAM_TIMEOUT_MS: "30000",
    });
    expect(settingProblems()).toEqual([
      "JOBS_RUN_DEADLINE_SECONDS (40) must be at least 51: a run needs room for one upstream read (UPSTREAM_TIMEOUT_MS) and one send (WEBHOOK_TIMEOUT_MS or SMTP_TIMEOUT_MS) before its deadline.",
    ]);
    production({ JOBS_RUN_DEADLINE_SECONDS: "5" });
    expect(settingProblems()).toEqual([expect.stringMatching(/JOBS_RUN_DEADLINE_SECONDS/)]);
  });

  it("refuse production without a session secret, saying what to set", () => {
    production({ SESSION_SECRET: undefined });
    expect(settingProblems()).toEqual([expect.stringMatching(/^SESSION_SECRET is required in production/)]);
  });

  it("refuse a secret shorter than 32 characters, naming which one", () => {
    production({ SESSION_SECRET: "short" });
    expect(settingProblems()).toEqual([expect.stringMatching(/secret number 1 is 5 characters long/)]);
    production({ SESSION_SECRET: `${newest},tooshort` });
    expect(settingProblems()).toEqual([expect.stringMatching(/secret number 2/)]);
  });

  it("refuse production on the embedded database unless one instance is intended", () => {
    production({ DATABASE_URL: undefined });
    expect(settingProblems()).toEqual([expect.stringMatching(/^DATABASE_URL is not set: .*several instances.*EMBEDDED_DATABASE=1/)]);
    production({ DATABASE_URL: undefined, EMBEDDED_DATABASE: "1" });
    expect(settingProblems()).toEqual([]);
    expect(settings().database.embedded).toBe(true);
  });

  it("refuse e-mail in production without the public origin its links need, and accept it with one", () => {
    production({ SMTP_URL: "smtp://mail.internal:587" });
    expect(settingProblems()).toEqual([expect.stringMatching(/^APP_ORIGIN is required in production when SMTP_URL is set/)]);
    production({ SMTP_URL: "smtp://mail.internal:587", APP_ORIGIN: "https://dashboard.example.com" });
    expect(settingProblems()).toEqual([]);
    production({ SMTP_URL: "smtp://mail.internal:587", DEMO_MODE: "1" });
    expect(settingProblems()).toEqual([]);
  });

  it("need nothing on the demo upstream", () => {
    production({ DEMO_MODE: "1", DATABASE_URL: undefined, SESSION_SECRET: undefined, UPSTREAM_BASE_URL: "http://127.0.0.1:4010/v1" });
    expect(settingProblems()).toEqual([]);
    expect(settings().production).toBe(false);
  });

  it("name each malformed value, one line each, and never echo a database URL", () => {
    production({
      AUDIT_RETENTION_DAYS: "30d",
      APP_ORIGIN: "dashboard.example.com",
      UPSTREAM_TIMEOUT_MS: "-5",
      DATABASE_URL: "mysql://root:hunter2@db/x",
      EMBEDDED_DATABASE: "yes",
    });
    const problems = settingProblems();
    expect(problems).toHaveLength(5);
    expect(problems.join("\n")).toMatch(/AUDIT_RETENTION_DAYS must be a whole number from 1 to 36500, got "30d"/);
    expect(problems.join("\n")).toMatch(/APP_ORIGIN must be an http\(s\) URL/);
    expect(problems.join("\n")).toMatch(/UPSTREAM_TIMEOUT_MS/);
    expect(problems.join("\n")).toMatch(/EMBEDDED_DATABASE must be 1 or 0/);
    expect(problems.join("\n")).not.toContain("hunter2");
  });

  it("refuse an upstream that does not end in /v1, and an origin with a path", () => {
    production({ UPSTREAM_BASE_URL: "https://api.example.com/v2", APP_ORIGIN: "https://dash.example.com/app" });
    expect(settingProblems()).toEqual([expect.stringMatching(/must end in \/v1/), expect.stringMatching(/origin only/)]);
  });

  it("follow the environment as it changes", () => {
    production({ SESSION_TTL_SECONDS: "60" });
    expect(settings().session.ttlSeconds).toBe(60);
    vi.stubEnv("SESSION_TTL_SECONDS", "120");
    expect(settings().session.ttlSeconds).toBe(120);
  });
});

describe("session secrets", () => {
  it("seal with the newest secret and unseal with all of them", () => {
    const secrets = secretsFrom([newest, older]);
    expect(Object.values(secrets.sealing)).toEqual([newest]);
    expect(Object.values(secrets.unsealing).sort()).toEqual([newest, older].sort());
  });

  it("give a secret the same id wherever it stands in the list", () => {
    const olderId = Object.keys(secretsFrom([older]).sealing)[0]!;
    expect(secretsFrom([newest, older]).unsealing[olderId]).toBe(older);
  });

  it("are generated once per process when none is set (demo and development)", () => {
    const first = secretsFrom([]);
    expect(Object.values(first.sealing)[0]!.length).toBeGreaterThanOrEqual(32);
    expect(secretsFrom([]).sealing).toEqual(first.sealing);
  });
});
