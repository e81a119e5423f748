import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDemoUpstream, type DemoUpstream } from "@/demo-upstream/server";
import { Dashboard } from "@/test/dashboard-instances";
import { US_STORE } from "@/test/harness";
import { ensureBuild, freePort } from "@/test/processes";

/**
 * What an operator watches, from a real production process: one JSON log line per request with
 * its id, Prometheus metrics on their own port, OpenTelemetry spans sent to an OTLP receiver, and
 * the request id and trace context passed on to the upstream.
 */
const MANAGER_KEY = "sk_demo_manager_nw_us_7c2e5a90f3b1";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
}

/** Listens on a free port; `handle` answers each request with its body read. */
async function listen(
  handle: (path: string, headers: IncomingHttpHeaders, body: Buffer) => Promise<{ status: number; body: Buffer; type?: string }>,
) {
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      void handle(request.url ?? "/", request.headers, Buffer.concat(chunks)).then(({ status, body, type }) =>
        response.writeHead(status, type ? { "content-type": type } : {}).end(body),
      );
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe("logs, metrics and traces of a production process", () => {
  let upstream: DemoUpstream;
  let dashboard: Dashboard;
  let metricsPort: number;
  let receiver: Awaited<ReturnType<typeof listen>>;
  let relay: Awaited<ReturnType<typeof listen>>;
  const spans: OtlpSpan[] = [];
  const upstreamHeaders: IncomingHttpHeaders[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), "dash-observability-"));

  beforeAll(async () => {
    ensureBuild();
    upstream = await startDemoUpstream({ port: 0 });
    // The upstream's side, recorded: which headers each call carried.
    relay = await listen(async (path, headers, body) => {
      upstreamHeaders.push(headers);
      const forwarded = await fetch(`${upstream.baseUrl.replace(/\/v1$/, "")}${path}`, {
        method: body.length > 0 ? "POST" : "GET",
        headers: Object.fromEntries(
          Object.entries(headers).filter(([name]) => !["host", "connection", "content-length"].includes(name)),
        ) as Record<string, string>,
        body: body.length > 0 ? new Uint8Array(body) : undefined,
      });
      return {
        status: forwarded.status,
        body: Buffer.from(await forwarded.arrayBuffer()),
        type: forwarded.headers.get("content-type") ?? undefined,
      };
    });
    receiver = await listen(async (path, _headers, body) => {
      if (path === "/v1/traces") {
        const payload = JSON.parse(body.toString()) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] };
        for (const resource of payload.resourceSpans) for (const scope of resource.scopeSpans) spans.push(...scope.spans);
      }
      return { status: 200, body: Buffer.from("{}"), type: "application/json" };
    });
    metricsPort = await freePort();
    dashboard = await Dashboard.create({
      UPSTREAM_BASE_URL: `${relay.url}/v1`,
      SESSION_SECRET: "observability-test-secret-".padEnd(48, "x"),
      EMBEDDED_DATABASE: "1",
      DATA_DIR: dataDir,
      TRUST_PROXY_HOPS: "1",
      METRICS_PORT: String(metricsPort),
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    });
    await dashboard.start();
  }, 300_000);

  afterAll(async () => {
    await dashboard?.kill();
    await Promise.all([relay?.close(), receiver?.close(), upstream?.close()]);
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  const logLines = () =>
    dashboard
      .script!.output()
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  it("writes only JSON lines, one per request with its id (adopted from a trusted proxy), pages, static files and 404s included", async () => {
    const cookie = await dashboard.cookieFor(MANAGER_KEY);
    const requestId = "edge-4f1c2a9b7e3d";
    expect((await dashboard.request(`/api/v1/pixels/${US_STORE}`, { cookie, headers: { "x-request-id": requestId } })).status).toBe(200);
    await dashboard.request("/sign-in");
    await dashboard.request("/no-such-page");
    await dashboard.request("/api/health/live");
    await sleep(300);

    const lines = logLines();
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) expect(line).toMatchObject({ level: expect.any(String), time: expect.any(String), msg: expect.any(String) });
    expect(lines).toContainEqual(
      expect.objectContaining({ requestId, requestIdFrom: "x-request-id", status: 200, route: "GET /pixels/{storeUrl}" }),
    );
    expect(lines).toContainEqual(expect.objectContaining({ path: "/sign-in", status: 200 }));
    expect(lines).toContainEqual(expect.objectContaining({ path: "/no-such-page", status: 404 }));
    // Probes that succeed are not logged (LOG_PROBES=failures).
    expect(lines.filter((line) => String(line.route ?? "").includes("/api/health"))).toEqual([]);
    // The upstream sees the same request id.
    expect(upstreamHeaders.map((headers) => headers["x-request-id"])).toContain(requestId);
  });

  it("serves Prometheus metrics on METRICS_PORT only: requests, upstream calls, action outcomes, build", async () => {
    const cookie = await dashboard.cookieFor(MANAGER_KEY);
    expect((await dashboard.clone(cookie)).status).toBe(200);
    expect((await dashboard.request("/metrics")).status).toBe(404);

    const scraped = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(scraped).toMatch(/^dashboard_http_requests_total\{method="POST",route="POST \/api\/session",status="200"\} \d+$/m);
    expect(scraped).toMatch(/^dashboard_upstream_requests_total\{endpoint="[^"]+",outcome="2xx"\} \d+$/m);
    expect(scraped).toMatch(/^dashboard_upstream_request_duration_seconds_count\{endpoint="[^"]+"\} \d+$/m);
    expect(scraped).toMatch(/^dashboard_guarded_actions_total\{action="[^"]+",outcome="succeeded"\} 1$/m);
    expect(scraped).toMatch(/^dashboard_build_info\{version="[^"]+",build_id="[^"]+",migration="\d{4}_\w+"\} 1$/m);
    expect(scraped).toMatch(/^dashboard_draining 0$/m);
    expect(scraped).toMatch(/^process_resident_memory_bytes \d+/m);
  });

  it("exports a span per request continuing the caller's trace, with a span per upstream call in the same trace, whose traceparent the upstream receives", async () => {
    const cookie = await dashboard.cookieFor(MANAGER_KEY);
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    await dashboard.request(`/api/v1/context`, { cookie, headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } });
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && spans.filter((span) => span.traceId === traceId).length < 2) await sleep(200);

    const traced = spans.filter((span) => span.traceId === traceId);
    // The request's span is a child of the caller's; Next.js's own spans may sit between it and the upstream call's.
    expect(traced.find((span) => span.parentSpanId === "00f067aa0ba902b7")).toMatchObject({ name: "GET /context" });
    const client = traced.find((span) => span.name === "upstream GET /context");
    expect(client).toBeDefined();
    expect(upstreamHeaders.map((headers) => headers.traceparent)).toContain(`00-${traceId}-${client!.spanId}-01`);
  });
});
