import { median } from "./anomaly";

/** One channel's or product's part in a change: its value, its usual value, and its share of the move. */
interface Mover {
  key: string;
  current: number;
  baseline: number;
  change: number;
  /** change / the net change of all keys (0 when the net change is 0). */
  share: number;
}

/**
 * The keys that account for most of a move, largest first. Each key's usual value is its median over the rule's comparable periods (0
 * without sales), so the parts add up to the alert's move; only keys moving the same way as the whole are listed.
 */
export function whatMoved(
  current: ReadonlyMap<string, number>,
  history: readonly ReadonlyMap<string, number>[],
  limit = 5,
): { net: number; movers: Mover[] } {
  const keys = new Set([...current.keys(), ...history.flatMap((period) => [...period.keys()])]);
  const all = [...keys].map((key) => {
    const baseline = history.length ? median(history.map((period) => period.get(key) ?? 0)) : 0;
    const value = current.get(key) ?? 0;
    return { key, current: value, baseline, change: value - baseline };
  });
  const net = all.reduce((sum, mover) => sum + mover.change, 0);
  const movers = all
    .filter((mover) => (net < 0 ? mover.change < 0 : mover.change > 0))
    .sort((a, b) => Math.abs(b.change) - Math.abs(a.change) || (a.key < b.key ? -1 : 1))
    .slice(0, limit)
    .map((mover) => ({ ...mover, share: net === 0 ? 0 : mover.change / net }));
  return { net, movers };
}
