import { describe, expect, it } from "vitest";
import { daysInRange, groupChannels, groupValues, OTHER_KEY, partialEdges } from "./channel-groups";

const channels = (revenues: number[]) => revenues.map((revenue, index) => ({ channel: `c${index}`, revenue }));

describe("channel groups", () => {
  it("draws up to six channels each on its own, largest first", () => {
    expect(groupChannels(channels([5, 60, 10, 30, 20, 1]), 6)).toEqual({ drawn: ["c1", "c3", "c4", "c2", "c0", "c5"], grouped: [] });
  });

  it("above six, keeps the five largest and groups the rest as Other", () => {
    const { drawn, grouped } = groupChannels(channels([5, 60, 10, 30, 20, 1, 2, 3]), 6);
    expect(drawn).toEqual(["c1", "c3", "c4", "c2", "c0"]);
    expect(grouped.sort()).toEqual(["c5", "c6", "c7"]);
    expect(groupValues({ c1: 10, c3: 5, c4: 1, c2: 2, c0: 3, c5: 1, c6: 2, c7: 4 }, drawn)).toEqual({
      c1: 10,
      c3: 5,
      c4: 1,
      c2: 2,
      c0: 3,
      [OTHER_KEY]: 7,
    });
  });

  it("adds no Other when every channel is drawn", () => {
    expect(groupValues({ a: 1 }, ["a", "b"])).toEqual({ a: 1, b: 0 });
  });
});

describe("partial periods", () => {
  it("finds a first week that starts mid-week and a last month cut short", () => {
    // 2026-01-07 is a Wednesday: its week began on Monday the 5th.
    expect(partialEdges({ startDate: "2026-01-07", endDate: "2026-01-25" }, "week")).toEqual([
      { bucket: "2026-01-05", from: "2026-01-07", to: "2026-01-11" },
    ]);
    expect(partialEdges({ startDate: "2025-03-01", endDate: "2026-02-14" }, "month")).toEqual([
      { bucket: "2026-02-01", from: "2026-02-01", to: "2026-02-14" },
    ]);
    expect(partialEdges({ startDate: "2025-03-15", endDate: "2026-02-28" }, "month")).toEqual([
      { bucket: "2025-03-01", from: "2025-03-15", to: "2025-03-31" },
    ]);
  });

  it("finds none for whole periods or days", () => {
    expect(partialEdges({ startDate: "2025-03-01", endDate: "2026-02-28" }, "month")).toEqual([]);
    expect(partialEdges({ startDate: "2026-01-05", endDate: "2026-01-18" }, "week")).toEqual([]);
    expect(partialEdges({ startDate: "2026-01-07", endDate: "2026-01-09" }, "day")).toEqual([]);
  });

  it("counts the days of a bucket inside the range", () => {
    expect(daysInRange("2026-01-05", "week", { startDate: "2026-01-07", endDate: "2026-01-31" })).toBe(5);
    expect(daysInRange("2026-02-01", "month", { startDate: "2026-01-01", endDate: "2026-12-31" })).toBe(28);
    expect(daysInRange("2026-01-09", "day", { startDate: "2026-01-01", endDate: "2026-01-31" })).toBe(1);
  });
});

it("names no partial edges of a range that is not two calendar dates, as an odd upstream may answer", () => {
  expect(partialEdges({ startDate: "   ", endDate: "" }, "week")).toEqual([]);
  expect(partialEdges({ startDate: "2026-13-01", endDate: "2026-03-04" }, "month")).toEqual([]);
});
