import "server-only";
import type { NewRevenueTarget, RevenueTarget } from "@/shared/schemas/target";
import type { Db } from "@/server/db/database";

/** Monthly revenue targets per store (whole store, or one channel), with who set each and when. */
type TargetRow = { month: string; channel: string; amount: string; currency: string; setByEmail: string; setAt: Date };

const COLUMNS = `month, channel, amount::text as amount, currency, set_by_email as "setByEmail", set_at as "setAt"`;

const toTarget = (row: TargetRow): RevenueTarget => ({
  month: row.month,
  channel: row.channel === "" ? null : row.channel,
  amount: Number(row.amount),
  currency: row.currency,
  setByEmail: row.setByEmail,
  setAt: row.setAt.toISOString(),
});

/** Sets (or replaces) the target of a month, for the store or one of its channels. */
export async function setRevenueTarget(
  db: Db,
  scope: { organizationId: string; storeUrl: string },
  target: NewRevenueTarget & { currency: string },
  setByEmail: string,
  now: Date,
): Promise<RevenueTarget> {
  const [row] = await db.query<TargetRow>(
    `insert into revenue_targets (organization_id, store_url, month, channel, amount, currency, set_by_email, set_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8)
     on conflict (organization_id, store_url, month, channel) do update set amount = excluded.amount, currency = excluded.currency,
       set_by_email = excluded.set_by_email, set_at = excluded.set_at
     returning ${COLUMNS}`,
    [scope.organizationId, scope.storeUrl, target.month, target.channel ?? "", target.amount, target.currency, setByEmail, now],
  );
  return toTarget(row!);
}

/** The store's targets of a month (or of the months `month` to `last`): month by month, the whole store's first, then per channel. */
export async function revenueTargets(
  db: Db,
  scope: { organizationId: string; storeUrl: string },
  month: string,
  last: string = month,
): Promise<RevenueTarget[]> {
  const rows = await db.query<TargetRow>(
    `select ${COLUMNS} from revenue_targets where organization_id = $1 and store_url = $2 and month between $3 and $4 order by month, channel`,
    [scope.organizationId, scope.storeUrl, month, last],
  );
  return rows.map(toTarget);
}

export async function clearRevenueTarget(
  db: Db,
  scope: { organizationId: string; storeUrl: string },
  month: string,
  channel: string | undefined,
): Promise<boolean> {
  const rows = await db.query<{ month: string }>(
    "delete from revenue_targets where organization_id = $1 and store_url = $2 and month = $3 and channel = $4 returning month",
    [scope.organizationId, scope.storeUrl, month, channel ?? ""],
  );
  return rows.length > 0;
}
