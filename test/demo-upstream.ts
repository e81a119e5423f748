import { afterAll, afterEach, beforeAll, beforeEach, vi } from "vitest";
import { startDemoUpstream, type DemoUpstream } from "@/demo-upstream/server";
import { useUpstream } from "./harness";

/**
 * The demo upstream of a test file: started once, the dashboard pointed at it and its state reset before each test, the environment
 * restored after. The handle forwards to the running upstream (hooks registered after this run after its own).
 */
export function demoUpstreamPerFile(options: { control?: boolean } = {}): DemoUpstream {
  let started: DemoUpstream | undefined;
  beforeAll(async () => {
    started = await startDemoUpstream({ port: 0, ...options });
  });
  afterAll(() => started?.close());
  beforeEach(() => {
    useUpstream(started!.baseUrl);
    started!.reset();
  });
  afterEach(() => vi.unstubAllEnvs());
  return new Proxy({} as DemoUpstream, {
    get: (_, name) => {
      const value: unknown = Reflect.get(started!, name);
      return typeof value === "function" ? value.bind(started) : value;
    },
  });
}
