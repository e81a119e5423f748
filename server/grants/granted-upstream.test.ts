import { mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { database, type Db } from "@/server/db/database";
import { inReach, reachDb } from "@/server/db/reach";
import { logger } from "@/server/observability/log";
import { metrics } from "@/server/observability/metrics";
import { readiness } from "@/server/routes/health";
import { unique } from "@/test/databases";
import { callRoute } from "@/test/harness";
import { DEMO_KEY_FILE, demoDelegationKey } from "./demo-key";
import { GrantKeyMissing, grantedUpstream, GrantUnusable } from "./granted-upstream";
import { createGrant } from "./store";

/** A grant whose master key went missing is kept and fails as a configuration problem; only a failed check under a present key ends it. */
const KEY_A = "recovery-master-key-a-".padEnd(40, "a");
const KEY_B = "recovery-master-key-b-".padEnd(40, "b");
const STORE = "grant-recovery.example";

let db: Db;
beforeAll(async () => {
  vi.stubEnv("UPSTREAM_BASE_URL", "http://127.0.0.1:9/v1");
  db = reachDb(await database(), [STORE]);
});
afterEach(() => vi.unstubAllEnvs());
afterAll(() => vi.unstubAllEnvs());

const grantRow = (id: string) =>
  db
    .query<{ ended: Date | null; length: number; master: string; version: number }>(
      `select ended_at as ended, length(sealed_api_key) as length, master_key_id as master, seal_version as version from grants where id = $1`,
      [id],
    )
    .then((rows) => ({ ...rows[0]!, length: Number(rows[0]!.length), version: Number(rows[0]!.version) }));

const newGrant = () =>
  createGrant(
    db,
    {
      organizationId: "org_recovery",
      storeUrl: STORE,
      keyFingerprint: unique("fp"),
      ownerEmail: "owner@example.com",
      apiKey: "sk_x",
      ttlDays: 90,
    },
    new Date(),
  );

const open = (grantId: string) => inReach([STORE], () => grantedUpstream(grantId));

const missingCount = async (id: string) =>
  (await metrics.grantKeyMissing.get()).values.find((value) => value.labels.master_key_id === id)?.value ?? 0;

describe("a grant whose master key is missing from DELEGATION_KEY", () => {
  it("is kept, fails as a configuration problem with a log line and a metric, and opens again once the key is back", async () => {
    vi.stubEnv("UPSTREAM_BASE_URL", "http://127.0.0.1:9/v1");
    vi.stubEnv("DELEGATION_KEY", KEY_A);
    const grant = await newGrant();
    const masterA = (await grantRow(grant.id)).master;
    const before = await missingCount(masterA);
    const errors = vi.spyOn(logger, "error");

    vi.stubEnv("DELEGATION_KEY", KEY_B);
    const failure = await open(grant.id).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(GrantKeyMissing);
    expect((failure as Error).message).toMatch(
      /^A configuration problem: .* master key id [0-9a-f]{16}, which DELEGATION_KEY does not hold/,
    );
    expect(await grantRow(grant.id)).toMatchObject({ ended: null, master: masterA });
    expect((await grantRow(grant.id)).length).toBeGreaterThan(0);
    expect(await missingCount(masterA)).toBe(before + 1);
    expect(errors).toHaveBeenCalledWith(
      expect.objectContaining({ grantId: grant.id, masterKeyId: masterA }),
      expect.stringContaining("configuration problem"),
    );
    errors.mockRestore();

    // Back after the newest: it opens, and is sealed again under the newest key.
    vi.stubEnv("DELEGATION_KEY", `${KEY_B},${KEY_A}`);
    await open(grant.id);
    const after = await grantRow(grant.id);
    expect(after.master).not.toBe(masterA);
    expect(after).toMatchObject({ ended: null, version: 2 });
  });

  it("ends only when its sealed key fails its check under the master key it names", async () => {
    vi.stubEnv("UPSTREAM_BASE_URL", "http://127.0.0.1:9/v1");
    vi.stubEnv("DELEGATION_KEY", KEY_A);
    const grant = await newGrant();
    await db.query(
      "update grants set wrapped_data_key = set_byte(wrapped_data_key, 30, (get_byte(wrapped_data_key, 30) + 1) % 256) where id = $1",
      [grant.id],
    );
    const failure = await open(grant.id).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(GrantUnusable);
    expect((failure as GrantUnusable).reason).toBe("undecryptable");
    expect(await grantRow(grant.id)).toMatchObject({ length: 0 });
    expect((await grantRow(grant.id)).ended).not.toBeNull();
  });
});

describe("readiness", () => {
  it("counts grants in force per master key id and names the ids DELEGATION_KEY lacks", async () => {
    vi.stubEnv("UPSTREAM_BASE_URL", "http://127.0.0.1:9/v1");
    vi.stubEnv("DELEGATION_KEY", KEY_A);
    const grant = await newGrant();
    const masterA = (await grantRow(grant.id)).master;
    vi.stubEnv("DELEGATION_KEY", KEY_B);
    const response = await callRoute(readiness, new Request("http://localhost:3000/api/health/ready"));
    const body = (await response.json()) as {
      status: string;
      grants: { perMasterKey: { masterKeyId: string; grants: number; present: boolean }[]; missingMasterKeyIds: string[] };
    };
    // It says so; the instance still serves (requests need no grant).
    expect(body.status).toBe("ok");
    expect(body.grants.missingMasterKeyIds).toContain(masterA);
    expect(body.grants.perMasterKey.find((count) => count.masterKeyId === masterA)).toMatchObject({ present: false });
    expect(body.grants.perMasterKey.find((count) => count.masterKeyId === masterA)!.grants).toBeGreaterThanOrEqual(1);
  });
});

describe("the demo's master key", () => {
  let dataDir: string;
  beforeAll(async () => (dataDir = await mkdtemp(join(tmpdir(), "demo-key-"))));
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it("is generated once into the data folder, readable by its owner only, and read back by the next start", async () => {
    vi.stubEnv("DEMO_MODE", "1");
    vi.stubEnv("DELEGATION_KEY", "");
    vi.stubEnv("DATA_DIR", dataDir);
    const first = demoDelegationKey();
    expect(first).toMatch(/^[\w-]{43}$/);
    expect((await stat(join(dataDir, DEMO_KEY_FILE))).mode & 0o777).toBe(0o600);
    expect(demoDelegationKey()).toBe(first);
    // A data folder that already holds one (a restart): its key is read back, and its mode tightened.
    const kept = join(dataDir, "restarted");
    await mkdir(kept);
    await writeFile(join(kept, DEMO_KEY_FILE), "kept-demo-master-key\n", { mode: 0o644 });
    vi.stubEnv("DATA_DIR", kept);
    expect(demoDelegationKey()).toBe("kept-demo-master-key");
    expect((await stat(join(kept, DEMO_KEY_FILE))).mode & 0o777).toBe(0o600);
    vi.stubEnv("DEMO_MODE", "");
    expect(demoDelegationKey()).toBeNull();
  });
});
