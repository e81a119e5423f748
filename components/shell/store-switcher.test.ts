import { describe, expect, it } from "vitest";
import { switchedPath } from "./store-switcher";

describe("switchedPath", () => {
  it("opens the same section of the other store, its overview from elsewhere", () => {
    expect(switchedPath("/stores/a.example/alerts/12", "b.example")).toBe("/stores/b.example/alerts");
    expect(switchedPath("/stores/a.example/products", "b.example")).toBe("/stores/b.example/products");
    expect(switchedPath("/stores/a.example/campaigns/clone", "b.example")).toBe("/stores/b.example/campaigns/clone");
    expect(switchedPath("/inbox", "b.example/x")).toBe("/stores/b.example%2Fx");
  });
});
