import type { SeriesPoint } from "@/shared/schemas/product-metrics-view";
import { addDays } from "./date-range";

export interface Attributed {
  orders: number;
  revenue: number;
}

/** What a channel's store stands to lose: its attributed orders and revenue lately, and its last attributed order's day. */
interface ChannelStakes {
  last7: Attributed;
  last30: Attributed;
  /** The last store-local day with an attributed order in the series, or null. */
  lastOrderDate: string | null;
}

/** One channel's sums over the 7 and 30 days ending `today` (store-local, included), and its last day with an order. */
export function channelStakes(
  series: readonly Pick<SeriesPoint, "date" | "channel" | "orders" | "revenue">[],
  channel: string,
  today: string,
): ChannelStakes {
  const [from7, from30] = [addDays(today, -6), addDays(today, -29)];
  const last7 = { orders: 0, revenue: 0 };
  const last30 = { orders: 0, revenue: 0 };
  let lastOrderDate: string | null = null;
  for (const point of series) {
    if (point.channel !== channel || point.date > today) continue;
    if (point.orders > 0 && (lastOrderDate === null || point.date > lastOrderDate)) lastOrderDate = point.date;
    for (const [from, sum] of [
      [from7, last7],
      [from30, last30],
    ] as const) {
      if (point.date < from) continue;
      sum.orders += point.orders;
      sum.revenue += point.revenue;
    }
  }
  return { last7, last30, lastOrderDate };
}
