import "server-only";
import { randomUUID } from "node:crypto";
import type { AuditAction, AuditTarget } from "@/shared/schemas/activity";
import { appendAudit, auditInsert, logAudit, type NewAuditEntry } from "@/server/audit/audit";
import type { Db } from "@/server/db/database";
import { rememberRefusal } from "@/server/auth/key-refusals";
import { keyLabel } from "@/server/auth/key-identity";
import { DAY_MS } from "@/shared/days";

/** Idempotency records (after Stripe's): `started` before the call, settled with the audit entry as definitive, unknown, or deleted. */
export interface StoredAnswer {
  status: number;
  headers: { "content-type"?: string; "x-request-id"?: string };
  body: string;
}

/** Who asked, for what, with the names known before the call: enough to audit the attempt even after a crash. */
export interface AttemptContext {
  action: AuditAction;
  organizationId: string | null;
  storeUrl: string;
  userEmail: string;
  sessionId: string | null;
  requestId: string;
  target: AuditTarget;
}

export interface AttemptKey {
  keyFingerprint: string;
  /** Lower-case UUID. */
  idempotencyKey: string;
}

export type Begin =
  /** This request runs the action; `afterUnknown` when an earlier attempt with the key ended unknown. */
  | { kind: "acquired"; attemptId: string; afterUnknown: boolean }
  /** The key was used for a different request. */
  | { kind: "conflict" }
  /** Already settled: answer with this. */
  | { kind: "replay"; answer: StoredAnswer; outcome: "succeeded" | "failed"; auditId: string | null }
  /** Another request with the key is running (on this instance or another) and its lock is fresh. */
  | { kind: "in_progress"; lockedAt: Date }
  /** An earlier attempt was sent without a readable answer (or its lock went stale). */
  | { kind: "unknown"; auditId: string | null; target: AuditTarget };

const IDEMPOTENCY_TTL_MS = DAY_MS;

type RecordRow = {
  requestFingerprint: string;
  state: "started" | "definitive" | "unknown";
  outcome: "succeeded" | "failed" | null;
  lockedAt: Date;
  status: number | null;
  headers: StoredAnswer["headers"] | null;
  body: string | null;
  auditId: string | null;
  organizationId: string | null;
  storeUrl: string;
  userEmail: string;
  sessionId: string | null;
  requestId: string | null;
  target: AuditTarget;
  action: AuditAction;
};

/** Claims the key for one attempt. A `started` row past `lockTimeoutMs` died: unknown. `retryUnknown`: removal yes, clone no. */
export async function beginAttempt(
  db: Db,
  key: AttemptKey,
  requestFingerprint: string,
  context: AttemptContext,
  now: Date,
  options: { lockTimeoutMs: number; retryUnknown: boolean; ttlMs?: number },
): Promise<Begin> {
  const attemptId = randomUUID();
  const ids = [key.keyFingerprint, key.idempotencyKey];
  // The common case in one statement: a new key, or one whose record has expired, is claimed at once.
  const inserted = await db.query<{ attemptId: string }>(
    `insert into idempotency_records (key_fingerprint, idempotency_key, request_fingerprint, action, state, attempt_id, locked_at,
       organization_id, store_url, user_email, session_id, request_id, target, created_at, expires_at)
     values ($1, $2, $3, $4, 'started', $5, $6, $7, $8, $9, $10, $11, ($12::text)::jsonb, $6, $13)
     on conflict (key_fingerprint, idempotency_key) do update set request_fingerprint = excluded.request_fingerprint,
       action = excluded.action, state = 'started', outcome = null, attempt_id = excluded.attempt_id, locked_at = excluded.locked_at,
       response_status = null, response_headers = null, response_body = null, audit_id = null,
       organization_id = excluded.organization_id, store_url = excluded.store_url, user_email = excluded.user_email,
       session_id = excluded.session_id, request_id = excluded.request_id, target = excluded.target,
       created_at = excluded.created_at, expires_at = excluded.expires_at
     where idempotency_records.expires_at <= excluded.locked_at
     returning attempt_id as "attemptId"`,
    [
      ...ids,
      requestFingerprint,
      context.action,
      attemptId,
      now,
      context.organizationId,
      context.storeUrl,
      context.userEmail,
      context.sessionId,
      context.requestId,
      JSON.stringify(context.target),
      new Date(now.getTime() + (options.ttlMs ?? IDEMPOTENCY_TTL_MS)),
    ],
  );
  if (inserted.length > 0) return { kind: "acquired", attemptId, afterUnknown: false };

  return db.transaction(async (tx) => {
    const [row] = await tx.query<RecordRow>(
      `select request_fingerprint as "requestFingerprint", state, outcome, locked_at as "lockedAt", response_status as status,
         response_headers as headers, response_body as body, audit_id as "auditId", organization_id as "organizationId",
         store_url as "storeUrl", user_email as "userEmail", session_id as "sessionId", request_id as "requestId", target, action
       from idempotency_records where key_fingerprint = $1 and idempotency_key = $2 for update`,
      ids,
    );
    // The row was there at the insert and is locked now: only a purge racing this transaction could remove it.
    if (!row) return { kind: "in_progress", lockedAt: now };
    if (row.requestFingerprint !== requestFingerprint) return { kind: "conflict" };
    if (row.state === "definitive") {
      return {
        kind: "replay",
        answer: { status: row.status!, headers: row.headers ?? {}, body: row.body ?? "" },
        outcome: row.outcome!,
        auditId: row.auditId,
      };
    }
    let auditId = row.auditId;
    if (row.state === "started") {
      if (now.getTime() - row.lockedAt.getTime() < options.lockTimeoutMs) return { kind: "in_progress", lockedAt: row.lockedAt };
      auditId = await appendAudit(tx, {
        at: now,
        organizationId: row.organizationId,
        storeUrl: row.storeUrl,
        userEmail: row.userEmail,
        sessionId: row.sessionId,
        action: row.action,
        target: row.target,
        requestId: row.requestId,
        outcome: "unknown",
        status: null,
        upstreamRequestId: null,
        idempotencyKey: key.idempotencyKey,
        keyLabel: keyLabel(key.keyFingerprint),
      });
      await tx.query(
        "update idempotency_records set state = 'unknown', audit_id = $3 where key_fingerprint = $1 and idempotency_key = $2",
        [...ids, auditId],
      );
    }
    if (!options.retryUnknown) return { kind: "unknown", auditId, target: row.target };
    await tx.query(
      `update idempotency_records set state = 'started', attempt_id = $3, locked_at = $4, request_id = $5, session_id = $6
       where key_fingerprint = $1 and idempotency_key = $2`,
      [...ids, attemptId, now, context.requestId, context.sessionId],
    );
    return { kind: "acquired", attemptId, afterUnknown: true };
  });
}

/** A cheap look at a running attempt, for duplicates waiting on it: still started, and since when. */
export async function attemptLockedAt(db: Db, key: AttemptKey): Promise<Date | null> {
  const [row] = await db.query<{ lockedAt: Date }>(
    `select locked_at as "lockedAt" from idempotency_records where key_fingerprint = $1 and idempotency_key = $2 and state = 'started'`,
    [key.keyFingerprint, key.idempotencyKey],
  );
  return row?.lockedAt ?? null;
}

export type Settlement =
  | { state: "definitive"; outcome: "succeeded" | "failed"; answer: StoredAnswer }
  | { state: "unknown" }
  /** The action did not run: the record goes, so a retry with the key runs it. */
  | { state: "not_done" };

/** Settles an attempt with its audit entry (and any 403 refusal) in one transaction; one taken over as stale keeps its truer outcome. */
export async function finishAttempt(
  db: Db,
  key: AttemptKey & { attemptId: string },
  settlement: Settlement,
  audit: NewAuditEntry,
  options: { refusal?: string; ttlMs?: number } = {},
): Promise<string> {
  const where = "key_fingerprint = $1 and idempotency_key = $2 and attempt_id = $3";
  const params: unknown[] = [key.keyFingerprint, key.idempotencyKey, key.attemptId];
  const add = (...values: unknown[]) => values.map((value) => `$${params.push(value)}`);
  let settle: string;
  if (settlement.state === "not_done") {
    settle = `delete from idempotency_records where ${where}`;
  } else {
    const answer = settlement.state === "definitive" ? settlement.answer : null;
    const [state, outcome, status, headers, body, expires] = add(
      settlement.state,
      settlement.state === "definitive" ? settlement.outcome : null,
      answer?.status ?? null,
      answer ? JSON.stringify(answer.headers) : null,
      answer?.body ?? null,
      new Date(audit.at.getTime() + (options.ttlMs ?? IDEMPOTENCY_TTL_MS)),
    );
    settle = `update idempotency_records set state = ${state}, outcome = ${outcome}, response_status = ${status},
      response_headers = (${headers}::text)::jsonb, response_body = ${body}, audit_id = (select id from audit), expires_at = ${expires}
      where ${where}`;
  }
  const insert = auditInsert(audit, params.length + 1);
  params.push(...insert.params);
  const statement = `with audit as (${insert.sql} returning id), settled as (${settle}) select id from audit`;
  // One statement is one transaction: the audit entry and the record's final state stand or fall together.
  const write = async (tx: Db) => {
    await tx.query(statement, params);
    if (options.refusal !== undefined) await rememberRefusal(tx, key.keyFingerprint, audit.action, options.refusal, audit.at);
  };
  await (options.refusal === undefined ? write(db) : db.transaction(write));
  logAudit(insert.id, audit);
  return insert.id;
}

/** Drops records past their 24 hours. */
export async function purgeIdempotency(db: Db, now: Date): Promise<number> {
  const rows = await db.query<{ key: string }>("delete from idempotency_records where expires_at <= $1 returning idempotency_key as key", [
    now,
  ]);
  return rows.length;
}
