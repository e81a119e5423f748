import "server-only";
import type { Db } from "@/server/db/database";

/** One message's row in the deliveries ledger (migration 0007). */
export interface Delivery {
  key: string;
  organizationId: string | null;
  storeUrl: string;
  jobId: string | null;
  recipient: string;
  subject: string;
  html: string;
  textBody: string;
  headers: Record<string, string>;
  channel: "smtp" | "outbox";
  outcome: DeliveryOutcome;
  detail: string | null;
  messageId: string | null;
  attempts: number;
  createdAt: Date;
  updatedAt: Date;
  /** For an `unknown` message: what its owner decided (server/delivery/decisions.ts), by whom, when, and the key it was sent again under. */
  decision: "send_again" | "arrived" | null;
  decidedBy: string | null;
  decidedAt: Date | null;
  resentKey: string | null;
}

type DeliveryOutcome = "sending" | "sent" | "not_sent" | "unknown";

const COLUMNS = `key, organization_id as "organizationId", store_url as "storeUrl", job_id::text as "jobId", recipient, subject, html,
  text_body as "textBody", headers, channel, outcome, detail, message_id as "messageId", attempts, created_at as "createdAt", updated_at as "updatedAt",
  decision, decided_by as "decidedBy", decided_at as "decidedAt", resent_key as "resentKey"`;

type NewDelivery = Pick<Delivery, "key" | "recipient" | "subject" | "html" | "textBody" | "headers" | "channel" | "storeUrl"> &
  Partial<Pick<Delivery, "organizationId" | "jobId">> & { leaseHolder?: string };

/** The job's lease passed to another worker (or lapsed) before this message was claimed: nothing was sent. */
export class LeaseLost extends Error {
  constructor(readonly jobId: string) {
    super(`The lease of job ${jobId} was lost before the message was claimed: nothing was sent; the job's next holder sends it.`);
  }
}

/** Records the attempt before it leaves. `begun` is false for a sent, unknown or in-flight row; a stale 'sending' row becomes unknown. */
export async function beginDelivery(db: Db, message: NewDelivery, staleAfterMs: number): Promise<{ begun: boolean; delivery: Delivery }> {
  return db.transaction(async (tx) => {
    // In the transaction that claims the key: a handler whose lease was lost stops before its side effect.
    if (message.jobId && message.leaseHolder) {
      const [held] = await tx.query("select 1 from jobs where id = $1::bigint and locked_by = $2 and lease_until > now() for share", [
        message.jobId,
        message.leaseHolder,
      ]);
      if (!held) throw new LeaseLost(message.jobId);
    }
    const [inserted] = await tx.query<Delivery>(
      `insert into deliveries (key, organization_id, store_url, job_id, recipient, subject, html, text_body, headers, channel, outcome)
       values ($1, $2, $3, $4, $5, $6, $7, $8, ($9::text)::jsonb, $10, 'sending') on conflict (key) do nothing returning ${COLUMNS}`,
      [
        message.key,
        message.organizationId ?? null,
        message.storeUrl,
        message.jobId ?? null,
        message.recipient,
        message.subject,
        message.html,
        message.textBody,
        JSON.stringify(message.headers),
        message.channel,
      ],
    );
    if (inserted) return { begun: true, delivery: inserted };
    const [existing] = await tx.query<Delivery>(`select ${COLUMNS} from deliveries where key = $1 for update`, [message.key]);
    if (existing!.outcome === "not_sent") {
      const [retried] = await tx.query<Delivery>(
        `update deliveries set outcome = 'sending', attempts = attempts + 1, updated_at = now(), subject = $2, html = $3, text_body = $4,
           headers = ($5::text)::jsonb, channel = $6, job_id = $7, detail = null where key = $1 returning ${COLUMNS}`,
        [
          message.key,
          message.subject,
          message.html,
          message.textBody,
          JSON.stringify(message.headers),
          message.channel,
          message.jobId ?? null,
        ],
      );
      return { begun: true, delivery: retried! };
    }
    if (existing!.outcome === "sending" && Date.now() - existing!.updatedAt.getTime() > staleAfterMs) {
      const [unknown] = await tx.query<Delivery>(
        `update deliveries set outcome = 'unknown', updated_at = now(),
           detail = 'The sending instance stopped mid-send: the message may or may not have arrived, so it is not sent again.'
         where key = $1 returning ${COLUMNS}`,
        [message.key],
      );
      return { begun: false, delivery: unknown! };
    }
    return { begun: false, delivery: existing! };
  });
}

export async function finishDelivery(
  db: Db,
  key: string,
  result: { outcome: Exclude<DeliveryOutcome, "sending">; detail?: string; messageId?: string },
): Promise<Delivery> {
  const [row] = await db.query<Delivery>(
    `update deliveries set outcome = $2, detail = $3, message_id = $4, updated_at = now() where key = $1 returning ${COLUMNS}`,
    [key, result.outcome, result.detail ?? null, result.messageId ?? null],
  );
  return row!;
}

/** The recent deliveries of the given stores, newest first (the Runs page; `channel` 'outbox' for the Outbox). */
export function listDeliveries(
  db: Db,
  storeUrls: readonly string[],
  options: { channel?: "outbox"; limit?: number } = {},
): Promise<Delivery[]> {
  return db.query<Delivery>(
    `select ${COLUMNS} from deliveries where store_url = any($1::text[]) and ($2::text is null or channel = $2)
     order by created_at desc limit $3`,
    [storeUrls, options.channel ?? null, options.limit ?? 100],
  );
}

/** How a job's messages ended, counted as they are delivered. */
type DeliveryTally = Record<Delivery["outcome"], number>;

export const newDeliveryTally = (): DeliveryTally => ({ sent: 0, not_sent: 0, unknown: 0, sending: 0 });

/** A job's run detail, or a throw so the queue retries: only not-sent messages are sent again, never sent or unknown ones. */
export function settleDeliveries(tally: DeliveryTally): { detail: string } {
  const detail = `${tally.sent} sent, ${tally.not_sent} not sent, ${tally.unknown} unknown (not sent again)`;
  if (tally.not_sent > 0 || tally.sending > 0) throw new Error(tally.sending > 0 ? `${detail}, ${tally.sending} still being sent` : detail);
  return { detail };
}
