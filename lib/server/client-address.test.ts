import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { DashboardServerState } from "./lifecycle";

const KEY = Symbol.for("dashboard.server");
const globals = globalThis as { [KEY]?: DashboardServerState };

const request = (headers: Record<string, string>) => new Request("http://localhost:3000/api/session", { headers });

// A fresh module each time: the warning is given once per process.
const load = async () => {
  vi.resetModules();
  return import("./client-address");
};

beforeEach(() => {
  delete globals[KEY];
  vi.spyOn(console, "warn").mockImplementation(() => {});
});

afterEach(() => {
  delete globals[KEY];
  vi.restoreAllMocks();
});

describe("clientAddress", () => {
  it("reads the header only when the server says it vouches for it", async () => {
    const { clientAddress } = await load();
    const sent = request({ "x-dashboard-client-address": "198.51.100.7", "x-forwarded-for": "1.2.3.4" });
    expect(clientAddress(sent)).toBeNull();
    globals[KEY] = { vouchesClientAddress: true, draining: false, shutdownHooks: [] };
    expect(clientAddress(sent)).toBe("198.51.100.7");
    expect(clientAddress(request({}))).toBeNull();
    globals[KEY] = { vouchesClientAddress: false, draining: false, shutdownHooks: [] };
    expect(clientAddress(sent)).toBeNull();
  });
});

describe("warnIfClientAddressUnknown", () => {
  it("warns once when no server vouches, naming the way to start", async () => {
    const { warnIfClientAddressUnknown } = await load();
    warnIfClientAddressUnknown();
    warnIfClientAddressUnknown();
    expect(console.warn).toHaveBeenCalledTimes(1);
    expect(vi.mocked(console.warn).mock.calls[0]?.[0]).toMatch(/^sign-in limit disabled: .*npm start \/ scripts\/server\.mjs/);
  });

  it("stays silent under scripts/server.mjs", async () => {
    globals[KEY] = { vouchesClientAddress: true, draining: false, shutdownHooks: [] };
    const { warnIfClientAddressUnknown } = await load();
    warnIfClientAddressUnknown();
    expect(console.warn).not.toHaveBeenCalled();
  });
});
