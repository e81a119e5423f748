import "server-only";
import { randomUUID } from "node:crypto";
import type { AuditAction, AuditEntry, AuditOutcome, AuditTarget, ChangeAction } from "@/shared/schemas/activity";
import { logger } from "@/server/observability/log";
import type { Db } from "@/server/db/database";
import { daysAfter } from "@/shared/days";

/** Guarded actions' change history, appended in the transaction that settles the idempotency record: neither exists without the other. */
export interface NewAuditEntry {
  at: Date;
  organizationId: string | null;
  storeUrl: string;
  userEmail: string;
  sessionId: string | null;
  action: AuditAction;
  outcome: AuditOutcome;
  status: number | null;
  target: AuditTarget;
  requestId: string | null;
  upstreamRequestId: string | null;
  idempotencyKey: string | null;
  /** Which key of the ring acted: its label (server/auth/key-identity.ts), never the key. */
  keyLabel?: string | null;
}

export interface AuditFilters {
  action?: AuditAction;
  outcome?: AuditOutcome;
  userEmail?: string;
  /** Inclusive lower bound of `at`. */
  from?: Date;
  /** Exclusive upper bound of `at`. */
  to?: Date;
  /** Bounds of `at` per store (each store's days in its own zone): an entry of a store not listed is not shown. */
  storeBounds?: readonly { storeUrl: string; from?: Date; to?: Date }[];
}

interface AuditPage {
  entries: AuditEntry[];
  /** Opaque; pass it as `before` for the next (older) page. Null on the last page. */
  nextCursor: string | null;
}

const DEFAULT_AUDIT_RETENTION_DAYS = 400;

/** A cursor the listing did not write. */
export class InvalidCursor extends Error {
  readonly status = 400;
  readonly code = "bad_request";
  constructor() {
    super("The page cursor is not valid: start again from the first page.");
  }
}

type AuditRow = Omit<NewAuditEntry, "sessionId" | "idempotencyKey" | "keyLabel"> & { id: string; keyLabel: string | null };

const COLUMNS = `id, at, organization_id as "organizationId", store_url as "storeUrl", user_email as "userEmail", action,
  outcome, status, target, request_id as "requestId", upstream_request_id as "upstreamRequestId", key_label as "keyLabel"`;

function toEntry(row: AuditRow): AuditEntry {
  const { target } = row;
  const targetIds =
    target.ruleId || target.digestId
      ? [target.ruleId ?? target.digestId!]
      : row.action === "tracking-connection.remove"
        ? [target.connectionId ?? ""]
        : [target.adAccountId, target.sourceCampaignGroupId].filter((id): id is string => id !== undefined);
  return { ...row, at: row.at.toISOString(), targetIds, resultIds: target.newGroupId ? [target.newGroupId] : [] };
}

/** The insert of one entry, its parameters numbered from `$first`: alone, or as part of a larger statement. */
export function auditInsert(entry: NewAuditEntry, first = 1): { id: string; sql: string; params: unknown[] } {
  const id = `act_${randomUUID()}`;
  const n = (index: number) => `$${first + index}`;
  return {
    id,
    sql: `insert into audit_entries (id, at, organization_id, store_url, user_email, session_id, action, outcome, status, target,
       request_id, upstream_request_id, idempotency_key, key_label)
     values (${n(0)}, ${n(1)}, ${n(2)}, ${n(3)}, ${n(4)}, ${n(5)}, ${n(6)}, ${n(7)}, ${n(8)}, (${n(9)}::text)::jsonb, ${n(10)}, ${n(11)}, ${n(12)}, ${n(13)})`,
    params: [
      id,
      entry.at,
      entry.organizationId,
      entry.storeUrl,
      entry.userEmail,
      entry.sessionId,
      entry.action,
      entry.outcome,
      entry.status,
      JSON.stringify(entry.target),
      entry.requestId,
      entry.upstreamRequestId,
      entry.idempotencyKey,
      entry.keyLabel ?? null,
    ],
  };
}

/** One JSON line per entry written, so the history also reaches the server's log collector (no session or key). */
export function logAudit(id: string, entry: NewAuditEntry): void {
  const { at, organizationId, storeUrl, userEmail, action, outcome, status, target, requestId, upstreamRequestId, keyLabel } = entry;
  const line = {
    at: at.toISOString(),
    id,
    organizationId,
    storeUrl,
    userEmail,
    keyLabel,
    action,
    outcome,
    status,
    target,
    requestId,
    upstreamRequestId,
  };
  logger.info(line, "audit");
}

/** A change to an alert rule or digest, by whom (it went to no upstream: no status, no idempotency key). */
export function appendChange(
  db: Db,
  change: { at: Date; organizationId: string; storeUrl: string; userEmail: string; sessionId: string; requestId: string; keyLabel: string },
  action: ChangeAction,
  target: AuditTarget,
): Promise<string> {
  return appendAudit(db, { ...change, action, outcome: "succeeded", status: null, target, upstreamRequestId: null, idempotencyKey: null });
}

/** Appends one entry; call it with the transaction that settles the action. Returns the entry's id. */
export async function appendAudit(db: Db, entry: NewAuditEntry): Promise<string> {
  const insert = auditInsert(entry);
  await db.query(insert.sql, insert.params);
  logAudit(insert.id, entry);
  return insert.id;
}

const encodeCursor = (row: AuditRow) => Buffer.from(JSON.stringify([row.at.toISOString(), row.id])).toString("base64url");

function decodeCursor(cursor: string): [Date, string] {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown[];
    const date = new Date(String(at));
    // A time PostgreSQL could not compare (year 275760) is no cursor this listing wrote.
    const year = date.getUTCFullYear();
    if (typeof id === "string" && id.length <= 100 && !Number.isNaN(date.getTime()) && year >= 1970 && year <= 2100) return [date, id];
  } catch {
    // Falls through to the typed error.
  }
  throw new InvalidCursor();
}

/** The entries of the given stores, newest first, `limit` per page (keyset paging on (at, id)). */
export async function listAudit(
  db: Db,
  query: { storeUrls: readonly string[]; filters?: AuditFilters },
  page: { limit: number; before?: string },
): Promise<AuditPage> {
  const params: unknown[] = [query.storeUrls];
  const where = ["store_url = any($1::text[])"];
  const add = (clause: (n: string) => string, value: unknown) => {
    if (value === undefined) return;
    params.push(value);
    where.push(clause(`$${params.length}`));
  };
  const filters = query.filters ?? {};
  add((n) => `action = ${n}`, filters.action);
  add((n) => `outcome = ${n}`, filters.outcome);
  add((n) => `lower(user_email) = lower(${n})`, filters.userEmail);
  add((n) => `at >= ${n}`, filters.from);
  add((n) => `at < ${n}`, filters.to);
  if (filters.storeBounds) {
    const bounds = filters.storeBounds;
    params.push(
      bounds.map((bound) => bound.storeUrl),
      bounds.map((bound) => bound.from?.toISOString() ?? null),
      bounds.map((bound) => bound.to?.toISOString() ?? null),
    );
    const [urls, froms, tos] = [params.length - 2, params.length - 1, params.length].map((n) => `$${n}`);
    where.push(
      `exists (select 1 from unnest(${urls}::text[], ${froms}::timestamptz[], ${tos}::timestamptz[]) as bound(store_url, lo, hi)
        where bound.store_url = audit_entries.store_url and (bound.lo is null or at >= bound.lo) and (bound.hi is null or at < bound.hi))`,
    );
  }
  if (page.before) {
    const [at, id] = decodeCursor(page.before);
    params.push(at, id);
    where.push(`(at, id) < ($${params.length - 1}, $${params.length})`);
  }
  const limit = Math.max(1, Math.min(page.limit, 500));
  params.push(limit + 1);
  const rows = await db.query<AuditRow>(
    `select ${COLUMNS} from audit_entries where ${where.join(" and ")} order by at desc, id desc limit $${params.length}`,
    params,
  );
  const more = rows.length > limit;
  const shown = more ? rows.slice(0, limit) : rows;
  return { entries: shown.map(toEntry), nextCursor: more ? encodeCursor(shown[shown.length - 1]!) : null };
}

/** One entry, if it belongs to one of the given stores. */
export async function getAudit(db: Db, storeUrls: readonly string[], id: string): Promise<AuditEntry | null> {
  const [row] = await db.query<AuditRow>(`select ${COLUMNS} from audit_entries where store_url = any($1::text[]) and id = $2`, [
    storeUrls,
    id,
  ]);
  return row ? toEntry(row) : null;
}

/** Deletes entries older than the retention (AUDIT_RETENTION_DAYS, default 400 days). */
export async function purgeAudit(db: Db, now: Date, retentionDays = DEFAULT_AUDIT_RETENTION_DAYS): Promise<number> {
  const rows = await db.query<{ id: string }>("delete from audit_entries where at < $1 returning id", [daysAfter(now, -retentionDays)]);
  return rows.length;
}
