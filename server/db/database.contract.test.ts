import { randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { dumpAllTables, newLocation, storageBackends, unique, type Location } from "@/test/databases";
import { appendAudit } from "@/server/audit/audit";
import { closeDatabase, database, DatabaseUnavailable, openDatabase, pingDatabase, type Db } from "@/server/db/database";
import { beginAttempt, finishAttempt, type Begin } from "@/server/actions/idempotency";
import { rememberRefusal } from "@/server/auth/key-refusals";
import { migrate, migrationsDir } from "@/server/db/migrate";
import { recordFailure, retryAfterSeconds } from "@/server/auth/rate-limits";
import { createView } from "@/server/saved-views/repository";
import { keyFingerprint } from "@/server/auth/key-identity";
import { createSession } from "@/server/auth/sessions";

const API_KEY = "sk_live_journey_5d8e2f41c7a9b3";

describe.each(storageBackends())("the database on %s", (backend) => {
  let location: Location;
  beforeAll(async () => (location = await newLocation(backend)));
  afterAll(() => location.drop());

  it("keeps committed rows across a restart, and migrating again changes nothing", async () => {
    const first = await location.open();
    const org = unique("org");
    await appendAudit(first, {
      at: new Date(),
      organizationId: org,
      storeUrl: "shop.example",
      userEmail: "ada@example.com",
      sessionId: null,
      action: "campaign-group.clone",
      outcome: "succeeded",
      status: 200,
      target: { newGroupName: "Kept" },
      requestId: null,
      upstreamRequestId: null,
      idempotencyKey: null,
    });
    await first.close();
    const second = await location.open();
    try {
      expect(await migrate(second)).toEqual([]);
      expect(await second.query("select target from audit_entries where organization_id = $1", [org])).toEqual([
        { target: { newGroupName: "Kept" } },
      ]);
      const files = readdirSync(migrationsDir())
        .filter((name) => name.endsWith(".sql"))
        .map((name) => name.slice(0, -4));
      expect((await second.query<{ version: string }>("select version from schema_migrations")).map((row) => row.version)).toEqual(files);
    } finally {
      await second.close();
    }
  });

  it("answers DatabaseUnavailable once closed, instead of crashing", async () => {
    const db = await location.open();
    await db.close();
    await expect(db.query("select 1")).rejects.toBeInstanceOf(DatabaseUnavailable);
    await expect(db.transaction((tx) => tx.query("select 1"))).rejects.toBeInstanceOf(DatabaseUnavailable);
  });

  it("holds no API key after a journey through every table", async () => {
    const db = await location.open();
    try {
      const fingerprint = await keyFingerprint(db, API_KEY);
      const session = await createSession(
        db,
        {
          keyFingerprint: fingerprint,
          userEmail: "ada@example.com",
          userName: "Ada",
          organizationId: "org_1",
          organizationName: "Org",
          userAgent: "UA",
          clientAddress: "203.0.113.1",
        },
        new Date(),
      );
      const key = { keyFingerprint: fingerprint, idempotencyKey: randomUUID() };
      const context = {
        action: "campaign-group.clone" as const,
        organizationId: "org_1",
        storeUrl: "shop.example",
        userEmail: "ada@example.com",
        sessionId: session.id,
        requestId: "dash_1",
        target: { newGroupName: "Copy" },
      };
      const begun = (await beginAttempt(db, key, "req", context, new Date(), { lockTimeoutMs: 1000, retryUnknown: false })) as Extract<
        Begin,
        { kind: "acquired" }
      >;
      await finishAttempt(
        db,
        { ...key, attemptId: begun.attemptId },
        { state: "definitive", outcome: "failed", answer: { status: 403, headers: {}, body: '{"error":"no"}' } },
        { ...context, at: new Date(), outcome: "failed", status: 403, upstreamRequestId: "up_1", idempotencyKey: key.idempotencyKey },
        { refusal: "no" },
      );
      await recordFailure(db, "203.0.113.1", new Date());
      await rememberRefusal(db, fingerprint, "tracking-connection.remove", "no", new Date());
      await createView(
        db,
        { organizationId: "org_1", storeUrl: "shop.example", name: unique("v"), view: {}, createdByEmail: "ada@example.com" },
        new Date(),
      );
      const dump = await dumpAllTables(db);
      for (const table of ["sessions", "idempotency_records", "audit_entries", "sign_in_failures", "key_refusals", "saved_views"]) {
        expect(dump).toContain(`"${table}":[{`);
      }
      expect(dump).toContain(fingerprint);
      expect(dump).not.toContain(API_KEY);
      expect(dump).not.toContain(API_KEY.slice(8, 24));
    } finally {
      await db.close();
    }
  });
});

describe("an unreachable database", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("fails to open with DatabaseUnavailable", async () => {
    await expect(openDatabase({ url: "postgres://postgres@127.0.0.1:1/none" })).rejects.toBeInstanceOf(DatabaseUnavailable);
  });

  it("is tried again by the process's next call once it fails to open", async () => {
    vi.stubEnv("DATABASE_URL", "postgres://postgres@127.0.0.1:1/none");
    await expect(pingDatabase()).rejects.toBeInstanceOf(DatabaseUnavailable);
    vi.unstubAllEnvs();
    try {
      await expect(pingDatabase()).resolves.toBeUndefined();
      expect((await database()).kind).toBe("pglite");
    } finally {
      await closeDatabase();
    }
  });
});

describe.runIf(storageBackends().includes("postgres"))("several instances on one PostgreSQL", () => {
  let location: Location;
  beforeAll(async () => (location = await newLocation("postgres", { blank: true })));
  afterAll(() => location.drop());

  it("migrates once when two instances start at once", async () => {
    const [a, b] = await Promise.all([location.open(), location.open()]);
    try {
      expect(await a.query("select version from schema_migrations")).toHaveLength(readdirSync(migrationsDir()).length);
      expect(await b.query("select count(*)::int as n from sessions")).toEqual([{ n: 0 }]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("counts sign-in failures across instances", async () => {
    const [a, b] = await Promise.all([location.open(), location.open()]);
    try {
      const client = unique("198.51.100");
      const now = new Date();
      for (let i = 0; i < 10; i++) await recordFailure(i % 2 ? a : b, client, now);
      expect(await retryAfterSeconds(a, client, now)).toBe(60);
      expect(await retryAfterSeconds(b, client, now)).toBe(60);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("recovers by itself when its connections are cut (PostgreSQL restarted)", async () => {
    const db: Db = await location.open();
    try {
      await db.query("select 1");
      const name = new URL(process.env.TEST_DATABASE_URL!).pathname;
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      const [{ current }] = (await db.query<{ current: string }>("select current_database() as current")) as [{ current: string }];
      await admin.query("select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()", [current]);
      await admin.end();
      expect(name).not.toBe(`/${current}`);
      // The first query may still meet a dead connection (then DatabaseUnavailable); the pool replaces it at once.
      const first = await db.query("select 1 as one").catch((error: unknown) => error);
      if (first instanceof Error) expect(first).toBeInstanceOf(DatabaseUnavailable);
      expect(await db.query("select 1 as one")).toEqual([{ one: 1 }]);
    } finally {
      await db.close();
    }
  });
});
