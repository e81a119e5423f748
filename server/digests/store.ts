import "server-only";
import { randomBytes, randomUUID } from "node:crypto";
import type { Db } from "@/server/db/database";
import { acrossStores } from "@/server/db/reach";
import { underStoreCap } from "@/server/db/store-cap";
import { LIMITS } from "@/shared/limits";
import { liftSuppression, suppress } from "@/server/delivery/suppressions";
import { nextDigestSlot, type DigestCadence } from "@/shared/digest-schedule";

/** A saved view sent on a schedule (migration 0007). */
export interface DigestSchedule extends DigestCadence {
  id: string;
  organizationId: string;
  storeUrl: string;
  /** Null for a digest of several stores. */
  savedViewId: string | null;
  viewName: string;
  /** Its saved view was deleted (restorable for a while): nothing is sent meanwhile. */
  viewDeleted: boolean;
  /** The saved view's query (a digest of several stores: its range and comparison). */
  search: string;
  /** A digest of the All stores table: its stores, each read through its own grant. */
  portfolio: Portfolio | null;
  grantId: string;
  /** Whose grant it reads through: the one person who may change or delete it. */
  grantOwnerEmail: string;
  nextRunAt: Date;
  createdByEmail: string;
  createdAt: Date;
  recipients: { email: string; unsubscribed: boolean }[];
}

export interface Portfolio {
  stores: { url: string; organizationId: string }[];
  search: string;
}

/** The recipient `r` of digest `d` unsubscribed from the store's mail (through any digest or alert of it). */
const SUPPRESSED = `exists (select 1 from mail_suppressions s
  where s.organization_id = d.organization_id and s.store_url = d.store_url and s.email = r.email)`;

const COLUMNS = `d.id, d.organization_id as "organizationId", d.store_url as "storeUrl", d.saved_view_id as "savedViewId",
  coalesce(v.name, 'All stores') as "viewName", v.deleted_at is not null as "viewDeleted",
  coalesce(v.view->>'search', d.portfolio->>'search', '') as search, d.portfolio, d.grant_id as "grantId",
  (select g.owner_email from grants g where g.id = d.grant_id) as "grantOwnerEmail", d.cadence, d.weekday, d.local_time as "localTime", d.time_zone as "timeZone",
  d.next_run_at as "nextRunAt", d.created_by_email as "createdByEmail", d.created_at as "createdAt",
  coalesce((select json_agg(json_build_object('email', r.email, 'unsubscribed', r.unsubscribed_at is not null or ${SUPPRESSED}) order by r.email)
    from digest_recipients r where r.schedule_id = d.id), '[]'::json) as recipients`;
const FROM = "digest_schedules d left join saved_views v on v.id = d.saved_view_id";

export async function createSchedule(
  db: Db,
  input: DigestCadence & {
    organizationId: string;
    storeUrl: string;
    savedViewId: string | null;
    portfolio?: Portfolio;
    grantId: string;
    recipients: string[];
    createdByEmail: string;
  },
  now: Date,
): Promise<DigestSchedule | null> {
  const id = `digest_${randomUUID()}`;
  return db.transaction(async (tx) => {
    // Null: the store holds its stated number of digests already (concurrent schedulings take turns).
    if (!(await underStoreCap(tx, "digest_schedules", input.storeUrl, LIMITS.digestsPerStore))) return null;
    await tx.query(
      `insert into digest_schedules (id, organization_id, store_url, saved_view_id, grant_id, cadence, weekday, local_time, time_zone, next_run_at,
         created_by_email, created_at, portfolio)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [
        id,
        input.organizationId,
        input.storeUrl,
        input.savedViewId,
        input.grantId,
        input.cadence,
        input.cadence === "weekly" ? input.weekday : null,
        input.localTime,
        input.timeZone,
        nextDigestSlot(input, now),
        input.createdByEmail,
        now,
        input.portfolio ? JSON.stringify(input.portfolio) : null,
      ],
    );
    for (const email of new Set(input.recipients.map((address) => address.toLowerCase()))) {
      await tx.query(
        "insert into digest_recipients (schedule_id, email, unsubscribe_token, store_url) select $1, $2, $3, store_url from digest_schedules where id = $1",
        [id, email, randomBytes(24).toString("base64url")],
      );
    }
    return (await scheduleById(tx, id))!;
  });
}

export async function scheduleById(db: Db, id: string): Promise<DigestSchedule | null> {
  const [row] = await db.query<DigestSchedule>(`select ${COLUMNS} from ${FROM} where d.id = $1`, [id]);
  return row ?? null;
}

export function listSchedules(db: Db, organizationId: string, storeUrl: string): Promise<DigestSchedule[]> {
  return db.query<DigestSchedule>(
    `select ${COLUMNS} from ${FROM} where d.organization_id = $1 and d.store_url = $2 and d.portfolio is null order by d.created_at`,
    [organizationId, storeUrl],
  );
}

/** The digests of several stores kept by `storeUrls` (each under the store it belongs to). */
export function listPortfolioSchedules(db: Db, storeUrls: readonly string[]): Promise<DigestSchedule[]> {
  return db.query<DigestSchedule>(
    `select ${COLUMNS} from ${FROM} where d.portfolio is not null and d.store_url = any($1::text[]) order by d.created_at`,
    [storeUrls],
  );
}

/**
 * Changes a digest's cadence, time and recipients in place: a kept recipient keeps its
 * unsubscribe link and whether it unsubscribed; a new one gets its own link; a removed one goes.
 * Its next send moves to the new cadence's next slot. False when no such digest of the store.
 */
export async function updateSchedule(
  db: Db,
  where: { organizationId: string; storeUrl: string; id: string },
  change: Omit<DigestCadence, "timeZone"> & { recipients: string[] },
  now: Date,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [current] = await tx.query<{ timeZone: string }>(
      `select time_zone as "timeZone" from digest_schedules where organization_id = $1 and store_url = $2 and id = $3 for update`,
      [where.organizationId, where.storeUrl, where.id],
    );
    if (!current) return false;
    const cadence: DigestCadence = {
      ...change,
      weekday: change.cadence === "weekly" ? change.weekday : undefined,
      timeZone: current.timeZone,
    };
    await tx.query("update digest_schedules set cadence = $2, weekday = $3, local_time = $4, next_run_at = $5 where id = $1", [
      where.id,
      cadence.cadence,
      cadence.weekday ?? null,
      cadence.localTime,
      nextDigestSlot(cadence, now),
    ]);
    const emails = [...new Set(change.recipients.map((address) => address.toLowerCase()))];
    await tx.query("delete from digest_recipients where schedule_id = $1 and not (email = any($2::text[]))", [where.id, emails]);
    for (const email of emails) {
      await tx.query(
        `insert into digest_recipients (schedule_id, email, unsubscribe_token, store_url) select $1, $2, $3, store_url from digest_schedules where id = $1
         on conflict (schedule_id, email) do nothing`,
        [where.id, email, randomBytes(24).toString("base64url")],
      );
    }
    return true;
  });
}

export async function deleteSchedule(db: Db, organizationId: string, storeUrl: string, id: string): Promise<boolean> {
  const rows = await db.query("delete from digest_schedules where organization_id = $1 and store_url = $2 and id = $3 returning id", [
    organizationId,
    storeUrl,
    id,
  ]);
  return rows.length > 0;
}

/**
 * Takes the schedules due at `now` and moves each to its next slot, in one transaction (rows
 * locked, skipped by a concurrent planner): each slot comes back exactly once.
 */
export function takeDueSlots(
  db: Db,
  now: Date,
  limit = 500,
): Promise<{ scheduleId: string; organizationId: string; storeUrl: string; slot: Date }[]> {
  return db.transaction(async (tx) => {
    const due = await tx.query<DigestCadence & { id: string; organizationId: string; storeUrl: string; nextRunAt: Date }>(
      `select id, organization_id as "organizationId", store_url as "storeUrl", cadence, weekday, local_time as "localTime", time_zone as "timeZone", next_run_at as "nextRunAt"
       from digest_schedules where next_run_at <= $1 order by next_run_at limit $2 for update skip locked`,
      [now, limit],
    );
    for (const schedule of due) {
      // A slot missed while every instance was down is sent once, not once per missed slot.
      await tx.query("update digest_schedules set next_run_at = $2 where id = $1", [schedule.id, nextDigestSlot(schedule, now)]);
    }
    return due.map((schedule) => ({
      scheduleId: schedule.id,
      organizationId: schedule.organizationId,
      storeUrl: schedule.storeUrl,
      slot: schedule.nextRunAt,
    }));
  });
}

/** The recipients still subscribed (and not suppressed for the store), with their unsubscribe tokens. */
export function activeRecipients(db: Db, scheduleId: string): Promise<{ email: string; token: string }[]> {
  return db.query(
    `select r.email, r.unsubscribe_token as token from digest_recipients r join digest_schedules d on d.id = r.schedule_id
     where r.schedule_id = $1 and r.unsubscribed_at is null and not ${SUPPRESSED} order by r.email`,
    [scheduleId],
  );
}

/** Whom an unsubscribe link is for, and whether the address is unsubscribed now; null for an unknown token. */
interface Subscription {
  email: string;
  viewName: string;
  organizationId: string;
  storeUrl: string;
  unsubscribed: boolean;
}

/**
 * The store an unsubscribe link's token belongs to: the token alone names it, so this one lookup
 * runs across stores (the recipient has no session); the rest of the link's work runs in that store's reach.
 */
export async function storeOfToken(db: Db, token: string): Promise<string | null> {
  return acrossStores(db, "unsubscribe link: the store its token names", async (tx) => {
    const [row] = await tx.query<{ storeUrl: string }>(
      `select store_url as "storeUrl" from digest_recipients where unsubscribe_token = $1
       union all select store_url from mail_unsubscribe_links where token = $1 limit 1`,
      [token],
    );
    return row?.storeUrl ?? null;
  });
}

export async function subscriptionOf(db: Db, token: string): Promise<Subscription | null> {
  const [row] = await db.query<Subscription>(
    `select r.email, coalesce(v.name, 'All stores') as "viewName", d.organization_id as "organizationId", d.store_url as "storeUrl",
       r.unsubscribed_at is not null or ${SUPPRESSED} as unsubscribed
     from digest_recipients r join digest_schedules d on d.id = r.schedule_id left join saved_views v on v.id = d.saved_view_id
     where r.unsubscribe_token = $1`,
    [token],
  );
  return row ?? null;
}

/**
 * Unsubscribes the link's address from this digest and suppresses it for the store's mail, or
 * (`subscribe`) opts it in again: the only way a suppressed address receives mail again.
 */
export function setSubscribed(db: Db, token: string, subscribed: boolean, now: Date): Promise<Subscription | null> {
  return db.transaction(async (tx) => {
    const found = await subscriptionOf(tx, token);
    if (!found) return null;
    await tx.query(
      `update digest_recipients set unsubscribed_at = ${subscribed ? "null" : "coalesce(unsubscribed_at, $2)"} where unsubscribe_token = $1`,
      subscribed ? [token] : [token, now],
    );
    if (subscribed) await liftSuppression(tx, found, found.email);
    else await suppress(tx, found, found.email, now);
    return { ...found, unsubscribed: !subscribed };
  });
}

/**
 * Since when a send of `slot` names restated days: the previous slot's lookup (a retry of the
 * same slot looks back as far as its first attempt), or the schedule's creation before any send.
 */
export async function lastSendOf(db: Db, scheduleId: string, slot: string): Promise<{ at: Date; lastDigest: boolean } | null> {
  const [row] = await db.query<{ since: Date | null; createdAt: Date }>(
    `select case when last_slot = $2 then previous_as_of else last_as_of end as since, created_at as "createdAt"
     from digest_schedules where id = $1`,
    [scheduleId, slot],
  );
  if (!row) return null;
  return row.since ? { at: new Date(row.since), lastDigest: true } : { at: new Date(row.createdAt), lastDigest: false };
}

/** Records that `slot` was sent with its restated days looked up at `asOf`: the next slot names only later ones. */
export async function recordSend(db: Db, scheduleId: string, slot: string, asOf: Date): Promise<void> {
  await db.query(
    `update digest_schedules set
       previous_as_of = case when last_slot = $2 then previous_as_of else last_as_of end, last_as_of = $3, last_slot = $2
     where id = $1`,
    [scheduleId, slot, asOf],
  );
}
