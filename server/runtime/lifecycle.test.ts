import { afterEach, describe, expect, it } from "vitest";
import { isDraining, onShutdown, publishServerState, type DashboardServerState } from "./lifecycle";

const KEY = Symbol.for("dashboard.server");
const globals = globalThis as { [KEY]?: DashboardServerState };

afterEach(() => {
  delete globals[KEY];
});

describe("lifecycle", () => {
  it("follows the state the server publishes", () => {
    const state = publishServerState();
    expect(globals[KEY]).toBe(state);
    expect(isDraining()).toBe(false);
    state.draining = true;
    expect(isDraining()).toBe(true);
    const hook = async () => {};
    onShutdown(hook);
    expect(state.shutdownHooks).toEqual([hook]);
  });

  it("is inert without the server (unit tests): not draining, hooks ignored", () => {
    expect(isDraining()).toBe(false);
    expect(() => onShutdown(async () => {})).not.toThrow();
    expect(globals[KEY]).toBeUndefined();
  });
});
