import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { whatMoved } from "./what-moved";

const map = (entries: Record<string, number>) => new Map(Object.entries(entries));

describe("what moved", () => {
  it("names the channel whose sales stopped, with its usual amount and its share of the drop", () => {
    const weeks = [map({ facebook: 1000, google: 800 }), map({ facebook: 1100, google: 780 }), map({ facebook: 900, google: 820 })];
    const { net, movers } = whatMoved(map({ facebook: 20, google: 810 }), weeks);
    expect(net).toBe(20 - 1000 + 10);
    expect(movers).toEqual([{ key: "facebook", current: 20, baseline: 1000, change: -980, share: -980 / -970 }]);
  });

  it("lists only keys that moved the way the whole did, largest first, at most `limit`", () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom("a", "b", "c", "d", "e", "f", "g"), fc.integer({ min: 0, max: 1000 })),
        fc.array(fc.dictionary(fc.constantFrom("a", "b", "c", "d", "e", "f", "g"), fc.integer({ min: 0, max: 1000 })), {
          minLength: 1,
          maxLength: 8,
        }),
        fc.integer({ min: 1, max: 5 }),
        (now, before, limit) => {
          const { net, movers } = whatMoved(map(now), before.map(map), limit);
          expect(movers.length).toBeLessThanOrEqual(limit);
          for (const mover of movers) {
            expect(Math.sign(mover.change)).toBe(Math.sign(net));
            expect(mover.change).toBe(mover.current - mover.baseline);
          }
          for (let i = 1; i < movers.length; i++)
            expect(Math.abs(movers[i - 1]!.change)).toBeGreaterThanOrEqual(Math.abs(movers[i]!.change));
        },
      ),
    );
  });
});
