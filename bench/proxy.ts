/**
 * The proxy's cost: the same request straight to the demo upstream and through the
 * dashboard's /api/v1 proxy, measured in one run, and a 100-connection soak through the proxy.
 */
import autocannon from "autocannon";
import { pacedLoad, type PacedResult } from "./paced-load";
import { ADMIN_KEY, benchStorages, signInCookie, startDashboardProcess, startDemoUpstreamProcess, US_STORE } from "./processes";

interface Load {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  requests: number;
}

async function load(url: string, headers: Record<string, string>, connections: number, duration: number): Promise<Load> {
  const result = await autocannon({ url, headers, connections, duration });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    requests: result.requests.total,
  };
}

export interface ProxyBenchOptions {
  duration?: number;
  soakDuration?: number;
}

/** The proxy on each storage the session check can run on: PGlite, and PostgreSQL when one is reachable. */
export async function benchProxy(options: ProxyBenchOptions = {}) {
  const storages = await benchStorages();
  try {
    for (const [index, storage] of storages.entries()) {
      console.log(`\n=== Sessions checked on ${storage.name} ===`);
      // The soak runs once: it measures the dashboard's stability, not the storage.
      await benchProxyOn(storage.env, { ...options, soakDuration: index === 0 ? options.soakDuration : 0 });
    }
  } finally {
    for (const storage of storages) await storage.drop();
  }
}

async function benchProxyOn(env: Record<string, string>, { duration = 10, soakDuration = 30 }: ProxyBenchOptions) {
  const upstream = await startDemoUpstreamProcess();
  const dashboard = await startDashboardProcess(upstream.baseUrl, 3900, env);
  try {
    const cookie = await signInCookie(dashboard.origin);
    const direct = `${upstream.baseUrl}/store-data/${US_STORE}`;
    const proxied = `${dashboard.origin}/api/v1/store-data/${US_STORE}`;
    // Warm both paths (JIT, connection pools) before measuring.
    await load(direct, { "x-api-key": ADMIN_KEY }, 10, 2);
    await load(proxied, { cookie }, 10, 2);

    const baseline = await load(direct, { "x-api-key": ADMIN_KEY }, 10, duration);
    const viaProxy = await load(proxied, { cookie }, 10, duration);
    // 10 connections at 10 requests/s each: well below saturation, so latency is the work per request.
    const paced = { connections: 10, intervalMs: 100, durationMs: duration * 1000 };
    const pacedDirect = await pacedLoad(direct, { "x-api-key": ADMIN_KEY }, paced);
    const pacedProxy = await pacedLoad(proxied, { cookie }, paced);
    const soak = soakDuration > 0 ? await load(proxied, { cookie }, 100, soakDuration) : undefined;

    const row = (name: string, r: Load) =>
      `  ${name.padEnd(36)} ${r.rps.toFixed(0).padStart(7)} req/s   p50 ${r.p50.toFixed(1).padStart(6)} ms   p99 ${r.p99.toFixed(1).padStart(6)} ms   errors ${r.errors}   non-2xx ${r.non2xx}`;
    const pacedRow = (name: string, r: PacedResult) =>
      `  ${name.padEnd(36)} ${String(r.requests).padStart(7)} req     p50 ${r.p50.toFixed(2).padStart(6)} ms   p99 ${r.p99.toFixed(2).padStart(6)} ms   errors ${r.errors}`;
    console.log(`\nProxy benchmark: GET /store-data/{storeUrl}`);
    console.log(`Saturated, ${duration} s at 10 connections (autocannon):`);
    console.log(row("demo upstream directly (baseline)", baseline));
    console.log(row("through the dashboard proxy", viaProxy));
    console.log(`  throughput ratio (proxy / direct)     ${(viaProxy.rps / baseline.rps).toFixed(3)}`);
    console.log(`Paced, ${duration} s at 10 connections × 10 req/s:`);
    console.log(pacedRow("demo upstream directly (baseline)", pacedDirect));
    console.log(pacedRow("through the dashboard proxy", pacedProxy));
    console.log(`  p50 latency ratio (proxy / direct)    ${(pacedProxy.p50 / pacedDirect.p50).toFixed(2)}`);
    console.log(`  added p50 latency                     ${(pacedProxy.p50 - pacedDirect.p50).toFixed(2)} ms (target ≤ 3 ms)`);
    if (soak) {
      console.log(`Soak, ${soakDuration} s at 100 connections through the proxy (autocannon):`);
      console.log(row("through the dashboard proxy", soak));
      console.log(`  ${soak.requests} requests, ${soak.errors} errors, ${soak.non2xx} non-2xx (target: none)`);
    }
    return { baseline, viaProxy, pacedDirect, pacedProxy, soak };
  } finally {
    await dashboard.stop();
    await upstream.stop();
  }
}
