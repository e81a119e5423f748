import "server-only";
import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { AuditAction, AuditOutcome, AuditTarget } from "@/shared/schemas/activity";
import { settings } from "@/server/config/settings";
import { logger } from "@/server/observability/log";
import { metrics } from "@/server/observability/metrics";
import { database, type Db } from "@/server/db/database";
import {
  attemptLockedAt,
  beginAttempt,
  finishAttempt,
  type AttemptContext,
  type AttemptKey,
  type Settlement,
  type StoredAnswer,
} from "@/server/actions/idempotency";
import { keyLabel } from "@/server/auth/key-identity";
import { ActionError, OutcomeUnknown } from "./errors";
import { sendAndClassify, type Classified } from "./outcome";

export const IDEMPOTENCY_HEADER = "idempotency-key";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Grace past the upstream deadline before a started attempt counts as crashed, so a slow attempt is never taken for a dead one. */
const LOCK_MARGIN_MS = 15_000;
/** A duplicate waits for the running attempt's upstream deadline plus this, then gets 409 in progress. */
const WAIT_MARGIN_MS = 2_000;
const FIRST_POLL_MS = 25;
const MAX_POLL_MS = 400;

export interface ActionRequest {
  action: AuditAction;
  /** The raw Idempotency-Key header: a UUID, compared case-insensitively. */
  idempotencyKey: string | null | undefined;
  /** `keyFingerprint(apiKey, secret)`: scopes the key to one API key without storing it. */
  keyFingerprint: string;
  session: { id: string | null; email: string };
  /** The organization the action works in, verified by the pipeline against the key's reach. */
  organizationId: string | null;
  storeUrl: string;
  /** What makes two requests "the same": the same key with other parts is a conflict. */
  fingerprint: { method: string; path: string; body?: unknown };
  /** Names looked up beforehand, kept in the audit log as they were. */
  target: AuditTarget;
  /** The dashboard's request id. */
  requestId: string;
  /** Performs the single upstream call: the raw upstream Response, or a rejection with the upstream client's errors. */
  send: () => Promise<Response>;
}

interface ActionResult {
  /** `replayed`: answered from the idempotency record, nothing was sent. */
  kind: "fresh" | "replayed";
  outcome: AuditOutcome;
  answer: StoredAnswer;
  /** Null only when the database failed after the upstream answered (the record then turns unknown by itself). */
  auditId: string | null;
}

export interface EngineOptions {
  db?: Db;
  now?: () => Date;
  /** Default: UPSTREAM_TIMEOUT_MS plus 15 s. */
  lockTimeoutMs?: number;
  /** How long a duplicate waits for the running attempt before 409 idempotency_in_progress. Default: UPSTREAM_TIMEOUT_MS plus 2 s. */
  maxWaitMs?: number;
}

/** The Idempotency-Key as stored: lower-case UUID; anything else is a 400. */
function parseIdempotencyKey(raw: string | null | undefined): string {
  const key = raw?.trim().toLowerCase() ?? "";
  if (UUID.test(key)) return key;
  const problem = key ? "is not a UUID" : "is missing";
  throw new ActionError(
    400,
    "bad_request",
    `The Idempotency-Key header ${problem}: send a new UUID with each action, and the same one when retrying it.`,
  );
}

function requestFingerprint(request: ActionRequest): string {
  const { method, path, body } = request.fingerprint;
  return createHash("sha256")
    .update(JSON.stringify([request.action, method, path, request.organizationId, body ?? null]))
    .digest("hex");
}

function settlementOf(classified: Classified): Settlement {
  if (classified.kind === "definitive") return { state: "definitive", outcome: classified.outcome, answer: classified.answer };
  return classified.kind === "unknown" ? { state: "unknown" } : { state: "not_done" };
}

/**
 * Runs one guarded action at most once per (API key, Idempotency-Key), Brandur-style: claim the key with a `started` record, send once and
 * classify, then settle the record with its audit entry in one transaction. Throws ActionError, OutcomeUnknown, DatabaseUnavailable
 * (nothing sent), or the client's error when the request never left.
 */
export async function runAction(request: ActionRequest, options: EngineOptions = {}): Promise<ActionResult> {
  const idempotencyKey = parseIdempotencyKey(request.idempotencyKey);
  const now = options.now ?? (() => new Date());
  const db = options.db ?? (await database());

  const upstreamTimeoutMs = settings().upstream.timeoutMs;
  const lockTimeoutMs = options.lockTimeoutMs ?? upstreamTimeoutMs + LOCK_MARGIN_MS;
  const maxWaitMs = options.maxWaitMs ?? Math.min(lockTimeoutMs, upstreamTimeoutMs + WAIT_MARGIN_MS);
  const key = { keyFingerprint: request.keyFingerprint, idempotencyKey };
  const context: AttemptContext = {
    action: request.action,
    organizationId: request.organizationId,
    storeUrl: request.storeUrl,
    userEmail: request.session.email,
    sessionId: request.session.id,
    requestId: request.requestId,
    target: request.target,
  };
  const fingerprint = requestFingerprint(request);
  const retryUnknown = request.action === "tracking-connection.remove";

  const waitUntil = Date.now() + maxWaitMs;
  for (;;) {
    const begun = await beginAttempt(db, key, fingerprint, context, now(), { lockTimeoutMs, retryUnknown });
    switch (begun.kind) {
      case "conflict":
        throw new ActionError(
          409,
          "idempotency_conflict",
          "This Idempotency-Key was already used for a different request. Start the action again to get a new key.",
        );
      case "replay":
        return { kind: "replayed", outcome: begun.outcome, answer: begun.answer, auditId: begun.auditId };
      case "unknown":
        throw new OutcomeUnknown(409, request.action, begun.auditId, begun.target);
      case "in_progress":
        if (!(await waitForSettlement(db, key, begun.lockedAt, lockTimeoutMs, waitUntil, now))) {
          throw new ActionError(
            409,
            "idempotency_in_progress",
            "This action is already running with the same Idempotency-Key. Try again in a moment.",
          );
        }
        continue;
      case "acquired":
        return settle(db, request, { ...key, attemptId: begun.attemptId }, begun.afterUnknown, now);
    }
  }
}

/** Waits, backing off, until the running attempt settles or its lock goes stale (the caller then claims again). False past `waitUntil`. */
async function waitForSettlement(
  db: Db,
  key: AttemptKey,
  lockedAt: Date,
  lockTimeoutMs: number,
  waitUntil: number,
  now: () => Date,
): Promise<boolean> {
  for (let interval = FIRST_POLL_MS; Date.now() < waitUntil; interval = Math.min(interval * 2, MAX_POLL_MS)) {
    await sleep(Math.min(interval * (0.5 + Math.random()), Math.max(0, waitUntil - Date.now())));
    const locked = await attemptLockedAt(db, key);
    if (!locked || locked.getTime() !== lockedAt.getTime() || now().getTime() - locked.getTime() >= lockTimeoutMs) return true;
  }
  return false;
}

async function settle(
  db: Db,
  request: ActionRequest,
  key: { keyFingerprint: string; idempotencyKey: string; attemptId: string },
  afterUnknown: boolean,
  now: () => Date,
): Promise<ActionResult> {
  const classified = await sendAndClassify(request.action, request.send, afterUnknown);
  const outcome: AuditOutcome =
    classified.kind === "definitive" ? classified.outcome : classified.kind === "unknown" ? "unknown" : "not_done";
  const answer = classified.kind === "definitive" || classified.kind === "not_done" ? classified.answer : null;
  const target =
    classified.kind === "definitive" && classified.newGroupId ? { ...request.target, newGroupId: classified.newGroupId } : request.target;
  const refused = answer?.status === 403 && classified.kind === "definitive" ? classified.errorMessage : undefined;
  metrics.actions.inc({ action: request.action, outcome });

  let auditId: string | null = null;
  try {
    auditId = await finishAttempt(
      db,
      key,
      settlementOf(classified),
      {
        at: now(),
        organizationId: request.organizationId,
        storeUrl: request.storeUrl,
        userEmail: request.session.email,
        sessionId: request.session.id,
        keyLabel: keyLabel(request.keyFingerprint),
        action: request.action,
        outcome,
        status: answer?.status ?? (classified.kind === "unknown" ? classified.status : null),
        target,
        requestId: request.requestId,
        upstreamRequestId: answer?.headers["x-request-id"] ?? (classified.kind === "unknown" ? classified.upstreamRequestId : null),
        idempotencyKey: key.idempotencyKey,
      },
      { refusal: refused },
    );
  } catch (error) {
    // The upstream has answered; hiding that answer would not undo it. The record stays
    // `started` and is settled as unknown once its lock times out.
    logger.error({ requestId: request.requestId, error: String(error) }, "action record not settled");
  }

  if (classified.kind === "not_sent") throw classified.error;
  if (classified.kind === "unknown") {
    throw new OutcomeUnknown(classified.timedOut ? 504 : 502, request.action, auditId, target, { cause: classified.error });
  }
  return { kind: "fresh", outcome, answer: classified.answer, auditId };
}
