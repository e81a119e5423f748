import { afterAll, afterEach, beforeAll, beforeEach, vi } from "vitest";
import { startDemoUpstream, type DemoUpstream } from "@/demo-upstream/server";
import { upstreamClient, type UpstreamClient } from "@/server/upstream/client";
import { ADMIN_KEY, useUpstream } from "./harness";

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

/**
 * The demo upstream of a test file, started once with the dashboard pointed at it and closed after, and a client reading it
 * with the US store admin's key under `requestId`.
 */
export function usStoreReadsPerFile(requestId: string): { readonly upstream: DemoUpstream; readonly client: UpstreamClient } {
  let started: { upstream: DemoUpstream; client: UpstreamClient } | undefined;
  beforeAll(async () => {
    const upstream = await startDemoUpstream({ port: 0 });
    useUpstream(upstream.baseUrl);
    started = { upstream, client: upstreamClient({ apiKey: ADMIN_KEY, requestId }) };
  });
  afterAll(() => started?.upstream.close());
  return {
    get upstream() {
      return started!.upstream;
    },
    get client() {
      return started!.client;
    },
  };
}
