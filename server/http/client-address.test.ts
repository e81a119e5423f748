import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { DashboardServerState } from "@/server/runtime/lifecycle";

const KEY = Symbol.for("dashboard.server");
const globals = globalThis as { [KEY]?: DashboardServerState };

const request = (headers: Record<string, string>) => new Request("http://localhost:3000/api/session", { headers });

const load = () => import("./client-address");

beforeEach(() => {
  delete globals[KEY];
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
