import "server-only";
import type { Db } from "@/server/db/database";
import { enqueue } from "@/server/jobs/queue";

/** `unknown` deliveries wait for a person: its grant's owner may resend (under a key derived from the old one) or say it arrived, once. */
export const RESEND_JOB = "delivery.resend";

type Decision = "send_again" | "arrived";

export interface AwaitingDelivery {
  key: string;
  organizationId: string | null;
  storeUrl: string;
  recipient: string;
  subject: string;
  channel: "smtp" | "outbox";
  detail: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** Whether the message's body is still kept (the retention purge empties it). */
  bodyKept: boolean;
  /** What sent it: a digest or an alert rule, and its id; null when the key names neither. */
  source: { kind: "digest"; digestId: string } | { kind: "alert"; notificationId: string; ruleId: string | null } | null;
  /** Who may decide: the owner of the grant it went out through; null when its digest or rule was deleted. */
  ownerEmail: string | null;
}

export interface DecisionRecord {
  key: string;
  decision: Decision;
  decidedBy: string;
  decidedAt: Date;
  resentKey: string | null;
  requestKey: string | null;
}

const AWAITING_COLUMNS = `d.key, d.organization_id as "organizationId", d.store_url as "storeUrl", d.recipient, d.subject, d.channel, d.detail,
  d.created_at as "createdAt", d.updated_at as "updatedAt", (d.html <> '' or d.text_body <> '') as "bodyKept",
  split_part(d.key, ':', 1) as "kind", split_part(d.key, ':', 2) as "sourceId",
  (select n.rule_id from notifications n where d.key like 'alert:%' and n.id = split_part(d.key, ':', 2)) as "ruleId",
  case
    when d.key like 'digest:%' then
      (select g.owner_email from digest_schedules s join grants g on g.id = s.grant_id where s.id = split_part(d.key, ':', 2))
    when d.key like 'alert:%' then
      (select r.created_by_email from notifications n join alert_rules r on r.id = n.rule_id
       where n.id = split_part(d.key, ':', 2) and r.deleted_at is null)
  end as "ownerEmail"`;

type AwaitingRow = Omit<AwaitingDelivery, "source"> & { kind: string; sourceId: string; ruleId: string | null };

function awaiting(row: AwaitingRow): AwaitingDelivery {
  const { kind, sourceId, ruleId, ...rest } = row;
  const source =
    kind === "digest" && sourceId
      ? ({ kind: "digest", digestId: sourceId } as const)
      : kind === "alert" && sourceId
        ? ({ kind: "alert", notificationId: sourceId, ruleId } as const)
        : null;
  return { ...rest, source };
}

/** The `unknown` deliveries of the given stores that nobody decided about yet, newest first. */
export async function listAwaitingDecision(db: Db, storeUrls: readonly string[], limit = 50): Promise<AwaitingDelivery[]> {
  const rows = await db.query<AwaitingRow>(
    `select ${AWAITING_COLUMNS} from deliveries d
     where d.store_url = any($1::text[]) and d.outcome = 'unknown' and d.decision is null
     order by d.created_at desc limit $2`,
    [storeUrls, limit],
  );
  return rows.map(awaiting);
}

/** One `unknown` delivery of the store, decided or not; null when the store has no such message. */
export async function unknownDelivery(db: Db, storeUrl: string, key: string): Promise<AwaitingDelivery | null> {
  const [row] = await db.query<AwaitingRow>(
    `select ${AWAITING_COLUMNS} from deliveries d where d.store_url = $1 and d.key = $2 and d.outcome = 'unknown'`,
    [storeUrl, key],
  );
  return row ? awaiting(row) : null;
}

/** The key a message sent again goes under: "…#2" for the first time, "…#3" if that one was sent again too. */
function resendKey(key: string): string {
  const numbered = /#(\d+)$/.exec(key);
  return numbered ? `${key.slice(0, numbered.index)}#${Number(numbered[1]) + 1}` : `${key}#2`;
}

const DECISION_COLUMNS = `key, decision, decided_by as "decidedBy", decided_at as "decidedAt", resent_key as "resentKey",
  decision_request_key as "requestKey"`;

/** Records the decision once (the row is locked; a decided row returns `decided: false`); "Send again" queues its job with it. */
export async function decide(
  tx: Db,
  delivery: AwaitingDelivery,
  decision: { kind: Decision; by: string; requestKey: string; at: Date },
): Promise<{ decided: boolean; record: DecisionRecord }> {
  const [current] = await tx.query<DecisionRecord & { decision: Decision | null }>(
    `select ${DECISION_COLUMNS} from deliveries where key = $1 and outcome = 'unknown' for update`,
    [delivery.key],
  );
  if (current?.decision) return { decided: false, record: current };
  const resentKey = decision.kind === "send_again" ? resendKey(delivery.key) : null;
  const [record] = await tx.query<DecisionRecord>(
    `update deliveries set decision = $2, decided_by = $3, decided_at = $4, resent_key = $5, decision_request_key = $6
     where key = $1 returning ${DECISION_COLUMNS}`,
    [delivery.key, decision.kind, decision.by, decision.at, resentKey, decision.requestKey],
  );
  if (resentKey) {
    await enqueue(
      RESEND_JOB,
      { key: delivery.key },
      {
        uniqueKey: `${RESEND_JOB}:${resentKey}`,
        organizationId: delivery.organizationId ?? undefined,
        storeUrl: delivery.storeUrl,
        db: tx,
      },
    );
  }
  return { decided: true, record: record! };
}
