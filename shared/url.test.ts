import { describe, expect, it } from "vitest";
import { buildPath } from "./url";

describe("buildPath", () => {
  it("encodes every segment, so a value can add no segment and no query", () => {
    expect(buildPath(["pixels", "shop/../x", "a?b#c"])).toBe("/pixels/shop%2F..%2Fx/a%3Fb%23c");
  });

  it("keeps only the query values that are set", () => {
    expect(buildPath(["a"], { one: "1", empty: "", none: undefined, two: "x y" })).toBe("/a?one=1&two=x+y");
    expect(buildPath(["a"], {})).toBe("/a");
  });
});
