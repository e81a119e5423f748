import "server-only";
import { createHash } from "node:crypto";
import { hostname } from "node:os";
import { settings } from "@/server/config/settings";
import { newerMigrationProblem, newestAppliedMigration } from "@/server/db/migrate";
import { database, DatabaseUnavailable } from "@/server/db/database";
import { ownerOf } from "@/server/db/reach";
import { jsonResponse } from "@/server/http/responses";
import { route } from "@/server/http/pipeline";
import { sessionSecrets } from "@/server/auth/secrets";
import { buildInfo } from "@/server/runtime/build-info";
import { isDraining } from "@/server/runtime/lifecycle";
import { grantsPerMasterKey, masterKeyCensus } from "@/server/grants/census";
import { masterKeyIds } from "@/server/grants/envelope";

/**
 * Liveness: the process can serve (no database call, so a blip restarts nothing). Readiness: database answers in time, schema expected, not
 * draining. Both name the build, instance and a fingerprint of the session secret (never the secret).
 */
const READY_TIMEOUT_MS = 1_500;

function identity() {
  const info = buildInfo();
  const newest = Object.values(sessionSecrets().sealing)[0]!;
  return {
    version: info.version,
    buildId: info.buildId,
    migration: info.migration,
    sessionSecretFingerprint: createHash("sha256").update(`session-secret:${newest}`).digest("hex").slice(0, 12),
    instance: `${hostname()}:${process.pid}`,
    uptimeSeconds: Math.round(process.uptime()),
  };
}

/** The newest migration applied, within the timeout, or "unavailable"; when ahead, whether an unknown migration breaks this build. */
async function appliedMigration(): Promise<{ applied: string; breaks: string | null } | "unavailable"> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new DatabaseUnavailable()), READY_TIMEOUT_MS)));
  const read = async () => {
    // The migrations' ledger is the owner's (migration 0025).
    const db = ownerOf(await database());
    const applied = await newestAppliedMigration(db);
    const ahead = buildInfo().migration && applied > buildInfo().migration;
    return { applied, breaks: ahead ? ((await newerMigrationProblem(db))?.message ?? null) : null };
  };
  try {
    return await Promise.race([read(), timedOut]);
  } catch {
    return "unavailable";
  } finally {
    clearTimeout(timer);
  }
}

/** Grants per master key id and the ids DELEGATION_KEY lacks, so a key removed early shows before a digest fails (readiness ignores it). */
async function grantCensus() {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new DatabaseUnavailable()), READY_TIMEOUT_MS)));
  try {
    const counts = await Promise.race([database().then(grantsPerMasterKey), timedOut]);
    const { perKey, missing } = masterKeyCensus(counts, masterKeyIds());
    return { perMasterKey: perKey, missingMasterKeyIds: missing };
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

const PROBE = "the probe of the instance itself";

/** GET /api/health/live: the process answers. */
export const liveness = route(
  { methods: ["GET"], path: "/api/health/live", scope: "none", reason: PROBE, session: false, probe: true },
  async ({ requestId }) => jsonResponse({ status: "ok", ...identity() }, { requestId }),
);

const readinessHandler = async ({ requestId }: { requestId: string }) => {
  const read = await appliedMigration();
  const applied = read === "unavailable" ? "unavailable" : read.applied;
  const expected = buildInfo().migration;
  const database = applied === "unavailable" ? "unavailable" : "ok";
  const schema =
    applied === "unavailable" ? "unknown" : !expected || applied === expected ? "current" : applied < expected ? "behind" : "ahead";
  const breaks = read === "unavailable" ? null : read.breaks;
  const problem = database !== "ok" ? "unavailable" : schema === "behind" ? "migrations_pending" : breaks ? "schema_too_new" : null;
  const status = isDraining() ? "draining" : (problem ?? "ok");
  const databaseKind = settings().database.embedded ? "embedded (PGlite, this instance only)" : "postgresql";
  const grants = database === "ok" && schema !== "behind" && settings().delegation.enabled ? await grantCensus() : null;
  return jsonResponse(
    {
      status,
      database,
      databaseKind,
      schema: { expected, applied: applied === "unavailable" ? null : applied, ...(breaks ? { problem: breaks } : {}) },
      grants,
      ...identity(),
    },
    { status: status === "ok" ? 200 : 503, requestId },
  );
};

/** GET /api/health/ready: 200 when this instance should be sent requests, 503 (with why) otherwise. */
export const readiness = route(
  { methods: ["GET"], path: "/api/health/ready", scope: "none", reason: PROBE, session: false, probe: true },
  readinessHandler,
);

/** GET /api/health: readiness, as load balancers configured for it still ask. */
export const health = route(
  { methods: ["GET"], path: "/api/health", scope: "none", reason: PROBE, session: false, probe: true },
  readinessHandler,
);
