import "server-only";
import type { AuditTarget } from "@/shared/schemas/activity";
import type { CloneAttempt, CloneDuplicate } from "@/shared/schemas/clone-attempt";
import type { Db } from "@/server/db/database";
import { DAY_MS } from "@/shared/days";

/** The clone each session sent for a store, written before the action is sent and read with its idempotency record (kept as long: 24 h). */
const KEPT_MS = DAY_MS;

interface NewCloneAttempt {
  sessionId: string;
  storeUrl: string;
  organizationId: string;
  keyFingerprint: string;
  idempotencyKey: string;
  request: unknown;
}

/** Keeps the session's attempt for the store (replacing an earlier one). */
export async function saveCloneAttempt(db: Db, attempt: NewCloneAttempt, now: Date): Promise<void> {
  await db.query(
    `insert into clone_attempts (session_id, store_url, organization_id, key_fingerprint, idempotency_key, request, created_at)
     values ($1, $2, $3, $4, $5, ($6::text)::jsonb, $7)
     on conflict (session_id, store_url) do update set organization_id = excluded.organization_id,
       key_fingerprint = excluded.key_fingerprint, idempotency_key = excluded.idempotency_key, request = excluded.request,
       created_at = excluded.created_at`,
    [
      attempt.sessionId,
      attempt.storeUrl,
      attempt.organizationId,
      attempt.keyFingerprint,
      attempt.idempotencyKey.toLowerCase(),
      JSON.stringify(attempt.request),
      now,
    ],
  );
}

type AttemptRow = {
  request: CloneAttempt["request"];
  idempotencyKey: string;
  createdAt: Date;
  state: "started" | "definitive" | "unknown" | null;
  outcome: "succeeded" | "failed" | null;
  status: number | null;
  body: string | null;
  headers: { "x-request-id"?: string } | null;
  auditId: string | null;
  target: AuditTarget | null;
};

function statusOf(row: AttemptRow): CloneAttempt["status"] {
  if (row.state === null) return "not_sent";
  if (row.state === "started") return "sending";
  if (row.state === "unknown") return "unknown";
  return row.outcome === "succeeded" ? "succeeded" : "failed";
}

/** The session's attempt for the store, and where its action stands; null when there is none. */
export async function readCloneAttempt(db: Db, sessionId: string, storeUrl: string): Promise<CloneAttempt | null> {
  const [row] = await db.query<AttemptRow>(
    `select a.request, a.idempotency_key as "idempotencyKey", a.created_at as "createdAt", r.state, r.outcome,
       r.response_status as status, r.response_body as body, r.response_headers as headers, r.audit_id as "auditId", r.target
     from clone_attempts a
     left join idempotency_records r on r.key_fingerprint = a.key_fingerprint and r.idempotency_key = a.idempotency_key
     where a.session_id = $1 and a.store_url = $2 and a.created_at > $3`,
    [sessionId, storeUrl, new Date(Date.now() - KEPT_MS)],
  );
  if (!row) return null;
  const status = statusOf(row);
  const definitive = status === "succeeded" || status === "failed";
  return {
    request: row.request,
    idempotencyKey: row.idempotencyKey,
    createdAt: row.createdAt.toISOString(),
    status,
    answer: definitive ? { status: row.status!, body: row.body ?? "", requestId: row.headers?.["x-request-id"] ?? null } : null,
    auditId: row.auditId,
    target: row.target,
  };
}

/** Forgets the session's attempt for the store ("Clone another"): the next clone starts from the form. */
export async function dismissCloneAttempt(db: Db, sessionId: string, storeUrl: string): Promise<void> {
  await db.query("delete from clone_attempts where session_id = $1 and store_url = $2", [sessionId, storeUrl]);
}

export async function purgeCloneAttempts(db: Db, now: Date): Promise<number> {
  const rows = await db.query<{ id: string }>("delete from clone_attempts where created_at <= $1 returning session_id as id", [
    new Date(now.getTime() - KEPT_MS),
  ]);
  return rows.length;
}

/** Clones of the last 24 h that made (or may have made) the same group: same ad account, source group and name (any case), newest first. */
export async function recentIdenticalClones(
  db: Db,
  storeUrl: string,
  clone: { adAccountId: string; sourceCampaignGroupId: string; name: string },
  now: Date,
): Promise<CloneDuplicate[]> {
  const rows = await db.query<{
    auditId: string;
    at: Date;
    userEmail: string;
    outcome: "succeeded" | "unknown";
    newGroupId: string | null;
  }>(
    `select id as "auditId", at, user_email as "userEmail", outcome, target->>'newGroupId' as "newGroupId"
     from audit_entries
     where store_url = $1 and action = 'campaign-group.clone' and outcome in ('succeeded', 'unknown')
       and at > $2 and target->>'adAccountId' = $3 and target->>'sourceCampaignGroupId' = $4 and lower(target->>'newGroupName') = lower($5)
     order by at desc limit 10`,
    [storeUrl, new Date(now.getTime() - KEPT_MS), clone.adAccountId, clone.sourceCampaignGroupId, clone.name.trim()],
  );
  return rows.map((row) => ({ ...row, at: row.at.toISOString() }));
}
