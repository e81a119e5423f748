import "server-only";
import type { Db } from "@/server/db/database";
import type { DataChange } from "@/shared/schemas/data-change";
import { currencyDecimals } from "@/shared/format";

type RestatementRow = {
  id: string;
  day: string;
  source: DataChange["source"];
  detectedAt: Date;
  currency: string | null;
  revenueBefore: number;
  revenueAfter: number;
  ordersBefore: number;
  ordersAfter: number;
  unitsBefore: number;
  unitsAfter: number;
  channels: DataChange["channels"];
  products: DataChange["products"];
};

/** The store's restated days, newest day first; within a range when one is given. */
export async function restatements(db: Db, storeUrl: string, range?: { startDate: string; endDate: string }): Promise<DataChange[]> {
  const rows = await db.query<RestatementRow>(
    `select id, to_char(day, 'YYYY-MM-DD') as day, source, detected_at as "detectedAt", currency,
       revenue_before::float8 as "revenueBefore", revenue_after::float8 as "revenueAfter", orders_before::float8 as "ordersBefore",
       orders_after::float8 as "ordersAfter", units_before::float8 as "unitsBefore", units_after::float8 as "unitsAfter", channels, products
     from rollup_restatements where store_url = $1 and ($2::date is null or day between $2 and $3)
     order by day desc, detected_at desc limit 500`,
    [storeUrl, range?.startDate ?? null, range?.endDate ?? null],
  );
  return rows.map((row) => {
    const decimals = currencyDecimals(row.currency);
    const pair = (before: number, after: number, places: number) => ({
      before: round(before, places),
      after: round(after, places),
      change: round(after - before, places),
    });
    return {
      id: row.id,
      day: row.day,
      source: row.source,
      detectedAt: new Date(row.detectedAt).toISOString(),
      currency: row.currency,
      revenue: pair(row.revenueBefore, row.revenueAfter, decimals),
      orders: pair(row.ordersBefore, row.ordersAfter, 6),
      units: pair(row.unitsBefore, row.unitsAfter, 6),
      channels: typeof row.channels === "string" ? JSON.parse(row.channels) : row.channels,
      products: typeof row.products === "string" ? JSON.parse(row.products) : row.products,
    };
  });
}

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;
