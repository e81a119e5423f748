import "server-only";
import { randomUUID } from "node:crypto";
import type { Db } from "@/server/db/database";
import type { StoreScope } from "@/server/alerts/rules";

/** The inbox: the notifications of a reach's stores, newest first, read or not per reader. */
export interface Notification {
  id: string;
  organizationId: string;
  storeUrl: string;
  ruleId: string | null;
  episodeId: string | null;
  kind: "alert_fired" | "alert_resolved" | "rule_paused";
  title: string;
  body: unknown;
  createdAt: Date;
  readAt: Date | null;
}

const COLUMNS = `n.id, n.organization_id as "organizationId", n.store_url as "storeUrl", n.rule_id as "ruleId",
  n.episode_id as "episodeId", n.kind, n.title, n.body, n.created_at as "createdAt"`;

export async function addNotification(
  db: Db,
  scope: StoreScope,
  input: { ruleId: string; episodeId: string; kind: Notification["kind"]; title: string; body: unknown },
  now: Date,
): Promise<Notification> {
  const [row] = await db.query<Notification>(
    `insert into notifications as n (id, organization_id, store_url, rule_id, episode_id, kind, title, body, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, ($8::text)::jsonb, $9) returning ${COLUMNS}, null::timestamptz as "readAt"`,
    [
      `note_${randomUUID()}`,
      scope.organizationId,
      scope.storeUrl,
      input.ruleId,
      input.episodeId,
      input.kind,
      input.title,
      JSON.stringify(input.body),
      now,
    ],
  );
  return row!;
}

/**
 * Tells the store's inbox, once per rule and saved view, that the rule is paused because that view
 * was deleted. Returns whether it was added (false when already said).
 */
export async function notePausedRule(
  db: Db,
  rule: StoreScope & { id: string },
  view: { id: string; name: string },
  title: string,
  now: Date,
): Promise<boolean> {
  const [said] = await db.query(
    "select 1 from notifications where rule_id = $1 and kind = 'rule_paused' and body->>'savedViewId' = $2 limit 1",
    [rule.id, view.id],
  );
  if (said) return false;
  await db.query(
    `insert into notifications (id, organization_id, store_url, rule_id, episode_id, kind, title, body, created_at)
     values ($1, $2, $3, $4, null, 'rule_paused', $5, ($6::text)::jsonb, $7)`,
    [
      `note_${randomUUID()}`,
      rule.organizationId,
      rule.storeUrl,
      rule.id,
      title,
      JSON.stringify({ savedViewId: view.id, viewName: view.name }),
      now,
    ],
  );
  return true;
}

/** The latest notifications of the given stores, with when this reader read each. */
export function listNotifications(db: Db, storeUrls: readonly string[], readerEmail: string, limit = 100): Promise<Notification[]> {
  return db.query<Notification>(
    `select ${COLUMNS}, r.read_at as "readAt" from notifications n
     left join notification_reads r on r.notification_id = n.id and r.reader_email = $2
     where n.store_url = any($1::text[]) order by n.created_at desc, n.id desc limit $3`,
    [storeUrls, readerEmail.toLowerCase(), limit],
  );
}

export async function unreadCount(db: Db, storeUrls: readonly string[], readerEmail: string): Promise<number> {
  const [row] = await db.query<{ count: string | number }>(
    `select count(*) as count from notifications n
     where n.store_url = any($1::text[])
       and not exists (select 1 from notification_reads r where r.notification_id = n.id and r.reader_email = $2)`,
    [storeUrls, readerEmail.toLowerCase()],
  );
  return Number(row?.count ?? 0);
}

/** Marks read (or unread again); false when none of the given stores has such a notification. */
export async function setRead(
  db: Db,
  storeUrls: readonly string[],
  readerEmail: string,
  id: string,
  read: boolean,
  now: Date,
): Promise<boolean> {
  const [found] = await db.query<{ id: string }>("select id from notifications where store_url = any($1::text[]) and id = $2", [
    storeUrls,
    id,
  ]);
  if (!found) return false;
  if (read) {
    await db.query(
      `insert into notification_reads (notification_id, reader_email, read_at, store_url)
       select id, $2, $3, store_url from notifications where id = $1 on conflict do nothing`,
      [id, readerEmail.toLowerCase(), now],
    );
  } else {
    await db.query("delete from notification_reads where notification_id = $1 and reader_email = $2", [id, readerEmail.toLowerCase()]);
  }
  return true;
}

export async function recordWebhookAttempt(
  db: Db,
  attempt: {
    notificationId: string;
    url: string;
    attempt: number;
    outcome: "sent" | "not_sent" | "unknown";
    status?: number;
    detail?: string;
  },
  now: Date,
): Promise<void> {
  await db.query(
    `insert into webhook_deliveries (id, notification_id, url, attempt, outcome, status, detail, at, store_url)
     select $1, $2, $3, $4, $5, $6, $7, $8, store_url from notifications where id = $2`,
    [
      `hook_${randomUUID()}`,
      attempt.notificationId,
      attempt.url,
      attempt.attempt,
      attempt.outcome,
      attempt.status ?? null,
      attempt.detail ?? null,
      now,
    ],
  );
}

export function webhookAttempts(db: Db, notificationId: string): Promise<{ attempt: number; outcome: string; status: number | null }[]> {
  return db.query("select attempt, outcome, status from webhook_deliveries where notification_id = $1 order by attempt", [notificationId]);
}
