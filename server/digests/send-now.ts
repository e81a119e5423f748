import "server-only";
import type { Db } from "@/server/db/database";
import { LIMITS } from "@/shared/limits";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

interface Press {
  organizationId: string;
  storeUrl: string;
  scheduleId: string;
  /** Who pressed: the signed-in person's e-mail address. */
  person: string;
}

/** A press refused: how long until one would be accepted, and why, in words. */
interface SendNowRefusal {
  waitSeconds: number;
  message: string;
}

/** "42 s", "12 min", "3 h": how long to wait, rounded up. */
function waitWords(seconds: number): string {
  if (seconds < 90) return `${seconds} s`;
  if (seconds < 90 * 60) return `${Math.ceil(seconds / 60)} min`;
  return `${Math.ceil(seconds / 3600)} h`;
}

/**
 * Seconds until fewer than `limit` presses (matching `where` in `table`) remain in the window; 0
 * when a press may go now. The organization's daily limit counts its presses in every one of its
 * stores from organization_send_now, which holds no store's rows (the press's reach is one store).
 */
async function windowWait(
  db: Db,
  table: string,
  where: string,
  values: unknown[],
  limit: number,
  windowMs: number,
  now: Date,
): Promise<number> {
  const [row] = await db.query<{ at: Date }>(
    `select at from ${table} where ${where} and at > $${values.length + 1} order by at desc offset $${values.length + 2} limit 1`,
    [...values, new Date(now.getTime() - windowMs), limit - 1],
  );
  if (!row) return 0;
  return Math.max(1, Math.ceil((row.at.getTime() + windowMs - now.getTime()) / 1000));
}

/**
 * Records a "Send now" press, or refuses it: once a minute and `sendNowPerPersonHour` an hour
 * per person and digest, `sendNowPerOrganizationDay` a day per organization. Presses of one
 * organization take turns (a transaction-scoped lock), so two at once cannot both slip under a limit.
 * Call it inside the transaction that queues the send.
 */
export async function takeSendNow(db: Db, press: Press, now: Date): Promise<SendNowRefusal | null> {
  await db.query("select pg_advisory_xact_lock(hashtext('send-now:' || $1::text))", [press.organizationId]);
  const person = press.person.toLowerCase();
  const mine = ["schedule_id = $1 and person = $2", [press.scheduleId, person]] as const;
  const checks: [number, (wait: number) => string][] = [
    [
      await windowWait(db, "send_now_presses", mine[0], [...mine[1]], 1, MINUTE, now),
      (wait) => `You sent this digest less than a minute ago. You may send it again in ${waitWords(wait)}.`,
    ],
    [
      await windowWait(db, "send_now_presses", mine[0], [...mine[1]], LIMITS.sendNowPerPersonHour, HOUR, now),
      (wait) => `You sent this digest ${LIMITS.sendNowPerPersonHour} times in the last hour. You may send it again in ${waitWords(wait)}.`,
    ],
    [
      await windowWait(
        db,
        "organization_send_now",
        "organization_id = $1",
        [press.organizationId],
        LIMITS.sendNowPerOrganizationDay,
        DAY,
        now,
      ),
      (wait) =>
        `Your organization sent ${LIMITS.sendNowPerOrganizationDay} digests with “Send now” in the last 24 hours. The next may go in ${waitWords(wait)}; scheduled digests still go out.`,
    ],
  ];
  const longest = checks.reduce((worst, check) => (check[0] > worst[0] ? check : worst));
  if (longest[0] > 0) return { waitSeconds: longest[0], message: longest[1](longest[0]) };
  await db.query("insert into send_now_presses (organization_id, store_url, schedule_id, person, at) values ($1, $2, $3, $4, $5)", [
    press.organizationId,
    press.storeUrl,
    press.scheduleId,
    person,
    now,
  ]);
  await db.query("insert into organization_send_now (organization_id, at) values ($1, $2)", [press.organizationId, now]);
  return null;
}

/** Cross-store maintenance: forgets presses older than the longest window (a day). */
export async function purgeSendNowPresses(db: Db, now: Date): Promise<number> {
  const before = new Date(now.getTime() - DAY);
  await db.query("delete from organization_send_now where at <= $1", [before]);
  return (await db.query("delete from send_now_presses where at <= $1 returning id", [before])).length;
}
