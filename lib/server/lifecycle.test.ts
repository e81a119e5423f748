import { afterEach, describe, expect, it } from "vitest";
import { isDraining, onShutdown, type DashboardServerState } from "./lifecycle";

const KEY = Symbol.for("dashboard.server");
const globals = globalThis as { [KEY]?: DashboardServerState };

afterEach(() => {
  delete globals[KEY];
});

describe("lifecycle", () => {
  it("follows the state published by scripts/server.mjs", () => {
    const state: DashboardServerState = { vouchesClientAddress: true, draining: false, shutdownHooks: [] };
    globals[KEY] = state;
    expect(isDraining()).toBe(false);
    state.draining = true;
    expect(isDraining()).toBe(true);
    const hook = async () => {};
    onShutdown(hook);
    expect(state.shutdownHooks).toEqual([hook]);
  });

  it("is inert under another server: not draining, hooks ignored", () => {
    expect(isDraining()).toBe(false);
    expect(() => onShutdown(async () => {})).not.toThrow();
    expect(globals[KEY]).toBeUndefined();
  });
});
