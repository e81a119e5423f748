import type { BiggestChanges, ChangeRanking, RevenueChange } from "@/shared/schemas/product-metrics-view";
import { roundMoney } from "./aggregate";

/** How many risers and fallers each ranking keeps. */
const CHANGES_LIMIT = 5;

type Revenues = ReadonlyMap<string, { revenue: number; name?: string | null }>;

function rank(current: Revenues, previous: Revenues, totalChange: number, decimals: number, limit: number): ChangeRanking {
  const changes: RevenueChange[] = [];
  for (const key of new Set([...current.keys(), ...previous.keys()])) {
    const now = current.get(key);
    const before = previous.get(key);
    const currentRevenue = roundMoney(now?.revenue ?? 0, decimals);
    const previousRevenue = roundMoney(before?.revenue ?? 0, decimals);
    const change = roundMoney(currentRevenue - previousRevenue, decimals);
    changes.push({
      key,
      name: now?.name ?? before?.name ?? null,
      current: currentRevenue,
      previous: previousRevenue,
      change,
      percent: previousRevenue === 0 ? null : change / Math.abs(previousRevenue),
      shareOfChange: totalChange === 0 ? null : change / totalChange,
      presence: !before ? "new" : !now ? "gone" : "both",
    });
  }
  // Ties go by key, so that the same figures always give the same ranking.
  const byKey = (a: RevenueChange, b: RevenueChange) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  return {
    risers: changes
      .filter((item) => item.change > 0)
      .sort((a, b) => b.change - a.change || byKey(a, b))
      .slice(0, limit),
    fallers: changes
      .filter((item) => item.change < 0)
      .sort((a, b) => a.change - b.change || byKey(a, b))
      .slice(0, limit),
  };
}

/**
 * The products and channels whose revenue rose and fell most between the comparison period
 * and the current one, ranked from the sums both aggregations already hold once their
 * streams have ended: the rows are not read again.
 */
export function biggestChanges(
  current: { products: Revenues; channels: Revenues },
  previous: { products: Revenues; channels: Revenues },
  decimals: number,
  limit = CHANGES_LIMIT,
): BiggestChanges {
  const total = (revenues: Revenues) =>
    roundMoney(
      [...revenues.values()].reduce((sum, item) => sum + item.revenue, 0),
      decimals,
    );
  const totalChange = roundMoney(total(current.channels) - total(previous.channels), decimals);
  return {
    totalChange,
    products: rank(current.products, previous.products, totalChange, decimals, limit),
    channels: rank(current.channels, previous.channels, totalChange, decimals, limit),
  };
}
