import "server-only";
import { randomBytes, randomUUID } from "node:crypto";
import type { AlertRuleInput } from "@/shared/schemas/alert";
import type { Db } from "@/server/db/database";
import { acrossStoresIfMigrated } from "@/server/db/reach";

/**
 * Alert rules of an organization, per store, and their episodes. Every statement about a rule
 * names its organization and store, so a rule is only reached through its own store; the
 * runner (no request) reads rules by id. The definition is stored as the rule schema's JSON.
 */
export interface StoredRule {
  id: string;
  organizationId: string;
  storeUrl: string;
  definition: unknown;
  webhookSecret: string;
  muted: boolean;
  snoozedUntil: Date | null;
  state: "ok" | "firing";
  lastCheckedAt: Date | null;
  /** The last period a check judged ("2026-11-23" or "2026-11-23 14:00"). */
  lastJudgedPeriod: string | null;
  createdByEmail: string;
  createdAt: Date;
  updatedAt: Date;
  /** Its saved view was deleted ('' when even its name is gone): the rule is paused until it names another view or the whole store. */
  deletedViewName: string | null;
}

export interface StoreScope {
  organizationId: string;
  storeUrl: string;
}

const COLUMNS = `id, organization_id as "organizationId", store_url as "storeUrl", definition, webhook_secret as "webhookSecret",
  muted, snoozed_until as "snoozedUntil", state, last_checked_at as "lastCheckedAt", last_judged_period as "lastJudgedPeriod", created_by_email as "createdByEmail",
  created_at as "createdAt", updated_at as "updatedAt",
  (select case when v.id is null then '' when v.deleted_at is not null then v.name end
     from (select 1) one left join saved_views v on v.id = alert_rules.definition->>'savedViewId'
     where alert_rules.definition->>'savedViewId' is not null) as "deletedViewName"`;

export async function createRule(db: Db, scope: StoreScope, input: AlertRuleInput, createdByEmail: string, now: Date): Promise<StoredRule> {
  const [row] = await db.query<StoredRule>(
    `insert into alert_rules (id, organization_id, store_url, definition, webhook_secret, created_by_email, created_at, updated_at)
     values ($1, $2, $3, ($4::text)::jsonb, $5, $6, $7, $7) returning ${COLUMNS}`,
    [
      `rule_${randomUUID()}`,
      scope.organizationId,
      scope.storeUrl,
      JSON.stringify(input),
      randomBytes(24).toString("hex"),
      createdByEmail,
      now,
    ],
  );
  return row!;
}

export function listRules(db: Db, scope: StoreScope): Promise<StoredRule[]> {
  return db.query<StoredRule>(
    `select ${COLUMNS} from alert_rules where organization_id = $1 and store_url = $2 and deleted_at is null order by created_at, id`,
    [scope.organizationId, scope.storeUrl],
  );
}

/** Every rule the background check looks at: not deleted, not muted (snoozed ones are skipped by the check itself). */
export function listRulesToCheck(db: Db): Promise<StoredRule[]> {
  return db.query<StoredRule>(`select ${COLUMNS} from alert_rules where deleted_at is null and not muted order by created_at, id`);
}

export async function getRule(db: Db, scope: StoreScope, id: string): Promise<StoredRule | null> {
  const [row] = await db.query<StoredRule>(
    `select ${COLUMNS} from alert_rules where organization_id = $1 and store_url = $2 and id = $3 and deleted_at is null`,
    [scope.organizationId, scope.storeUrl, id],
  );
  return row ?? null;
}

export async function updateRule(db: Db, scope: StoreScope, id: string, input: AlertRuleInput, now: Date): Promise<StoredRule | null> {
  const [row] = await db.query<StoredRule>(
    `update alert_rules set definition = ($4::text)::jsonb, updated_at = $5
     where organization_id = $1 and store_url = $2 and id = $3 and deleted_at is null returning ${COLUMNS}`,
    [scope.organizationId, scope.storeUrl, id, JSON.stringify(input), now],
  );
  return row ?? null;
}

/** Mute (no notifications until unmuted) and snooze (none before `snoozedUntil`). */
export async function setRuleQuiet(
  db: Db,
  scope: StoreScope,
  id: string,
  change: { muted?: boolean; snoozedUntil?: Date | null },
  now: Date,
): Promise<StoredRule | null> {
  const [row] = await db.query<StoredRule>(
    `update alert_rules set muted = coalesce($4, muted), snoozed_until = case when $5 then $6::timestamptz else snoozed_until end,
       updated_at = $7
     where organization_id = $1 and store_url = $2 and id = $3 and deleted_at is null returning ${COLUMNS}`,
    [scope.organizationId, scope.storeUrl, id, change.muted ?? null, change.snoozedUntil !== undefined, change.snoozedUntil ?? null, now],
  );
  return row ?? null;
}

export async function deleteRule(db: Db, scope: StoreScope, id: string, now: Date): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    "update alert_rules set deleted_at = $4 where organization_id = $1 and store_url = $2 and id = $3 and deleted_at is null returning id",
    [scope.organizationId, scope.storeUrl, id, now],
  );
  return rows.length === 1;
}

interface Episode {
  id: string;
  ruleId: string;
  openedPeriod: string;
  openedAt: Date;
  resolvedPeriod: string | null;
  resolvedAt: Date | null;
}

const EPISODE_COLUMNS = `id, rule_id as "ruleId", opened_period as "openedPeriod", opened_at as "openedAt",
  resolved_period as "resolvedPeriod", resolved_at as "resolvedAt"`;

/** A rule's episodes, newest first: from the period it fired to the one it no longer did (null while open). */
export function listEpisodes(db: Db, ruleId: string, limit = 50): Promise<(Episode & { value: number; baseline: number | null })[]> {
  return db.query(
    `select ${EPISODE_COLUMNS}, value::float8 as value, baseline::float8 as baseline
     from alert_episodes where rule_id = $1 order by opened_at desc limit $2`,
    [ruleId, limit],
  );
}

export async function openEpisodeOf(db: Db, ruleId: string): Promise<Episode | null> {
  const [row] = await db.query<Episode>(`select ${EPISODE_COLUMNS} from alert_episodes where rule_id = $1 and resolved_at is null`, [
    ruleId,
  ]);
  return row ?? null;
}

/**
 * Opens an episode, or returns null when one is already open (another check got there first:
 * the unique index allows one open episode per rule), so only one check ever notifies.
 */
export async function openEpisode(
  db: Db,
  ruleId: string,
  opened: { period: string; value: number; baseline: number | null; whatMoved: unknown },
  now: Date,
): Promise<Episode | null> {
  const rows = await db.query<Episode>(
    `insert into alert_episodes (id, rule_id, opened_period, opened_at, value, baseline, what_moved, store_url)
     select $1, $2, $3, $4, $5, $6, ($7::text)::jsonb, store_url from alert_rules where id = $2
     on conflict do nothing returning ${EPISODE_COLUMNS}`,
    [`episode_${randomUUID()}`, ruleId, opened.period, now, opened.value, opened.baseline, JSON.stringify(opened.whatMoved)],
  );
  if (rows.length) await db.query("update alert_rules set state = 'firing' where id = $1", [ruleId]);
  return rows[0] ?? null;
}

/** Ends the open episode; null when none was open (another check resolved it). */
export async function resolveEpisode(db: Db, ruleId: string, period: string, now: Date): Promise<Episode | null> {
  const [row] = await db.query<Episode>(
    `update alert_episodes set resolved_period = $2, resolved_at = $3 where rule_id = $1 and resolved_at is null returning ${EPISODE_COLUMNS}`,
    [ruleId, period, now],
  );
  await db.query("update alert_rules set state = 'ok' where id = $1", [ruleId]);
  return row ?? null;
}

export async function markChecked(db: Db, ruleId: string, now: Date, period: string): Promise<void> {
  await db.query("update alert_rules set last_checked_at = $2, last_judged_period = $3 where id = $1", [ruleId, now, period]);
}

/**
 * Why this instance may not start with these rules: in production, a rule that calls a webhook
 * needs APP_ORIGIN (its payload links back to the dashboard). Null when nothing is missing;
 * the table may not exist yet (a database before its migrations).
 */
export async function webhookOriginProblem(db: Db, { production, appOrigin }: { production: boolean; appOrigin?: string }) {
  if (!production || appOrigin) return null;
  const [table] = await db.query<{ name: string | null }>("select to_regclass('alert_rules')::text as name");
  if (!table?.name) return null;
  // A deployment-wide count, of every store's rules.
  const [row] = await acrossStoresIfMigrated(db, "the start's count of alert rules that call webhooks", (tx) =>
    tx.query<{ count: number }>(
      "select count(*)::int as count from alert_rules where deleted_at is null and definition->>'webhookUrl' is not null",
    ),
  );
  const count = row?.count ?? 0;
  return count === 0
    ? null
    : `APP_ORIGIN is required in production when alert rules call webhooks (${count} do): their payloads link to the dashboard, so set it to its public origin (https://dashboard.example.com).`;
}

/** Open alert episodes (of rules not deleted) per store of `storeUrls`, as the transaction's reach shows them. */
export async function openEpisodeCounts(db: Db, storeUrls: readonly string[]): Promise<Map<string, number>> {
  const rows = await db.query<{ storeUrl: string; open: number }>(
    `select e.store_url as "storeUrl", count(*)::int as open from alert_episodes e join alert_rules r on r.id = e.rule_id
     where e.resolved_at is null and r.deleted_at is null and e.store_url = any($1::text[]) group by e.store_url`,
    [storeUrls],
  );
  return new Map(rows.map((row) => [row.storeUrl, row.open]));
}
