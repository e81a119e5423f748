import "server-only";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { processSingleton } from "@/server/runtime/singleton";

/** Prometheus metrics (METRICS_PORT only): requests, upstream calls, guarded actions, pool, sessions, draining, build info; per process. */
function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const seconds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
  return {
    registry,
    requests: new Counter({
      name: "dashboard_http_requests_total",
      help: "Requests answered, by method, route template and status.",
      labelNames: ["method", "route", "status"] as const,
      registers: [registry],
    }),
    requestSeconds: new Histogram({
      name: "dashboard_http_request_duration_seconds",
      help: "Time to answer a request, until its last byte, by method and route template.",
      labelNames: ["method", "route"] as const,
      buckets: seconds,
      registers: [registry],
    }),
    upstreamCalls: new Counter({
      name: "dashboard_upstream_requests_total",
      help: "Calls to the upstream API, by endpoint and outcome (2xx, 4xx, 5xx, timeout, unreachable).",
      labelNames: ["endpoint", "outcome"] as const,
      registers: [registry],
    }),
    upstreamSeconds: new Histogram({
      name: "dashboard_upstream_request_duration_seconds",
      help: "Time until the upstream's answer began, by endpoint.",
      labelNames: ["endpoint"] as const,
      buckets: seconds,
      registers: [registry],
    }),
    actions: new Counter({
      name: "dashboard_guarded_actions_total",
      help: "Guarded actions by action and outcome: succeeded, failed (definitive), not_done, unknown; replayed answers are not counted.",
      labelNames: ["action", "outcome"] as const,
      registers: [registry],
    }),
    grantKeyMissing: new Counter({
      name: "dashboard_grant_master_key_missing_total",
      help: "Uses of a grant refused because DELEGATION_KEY lacks the master key it was sealed under (a configuration problem; the grant is kept), by master key id.",
      labelNames: ["master_key_id"] as const,
      registers: [registry],
    }),
    draining: new Gauge({ name: "dashboard_draining", help: "1 while the instance drains for a stop.", registers: [registry] }),
    buildInfo: new Gauge({
      name: "dashboard_build_info",
      help: "The running build: always 1, with its version, build id and migration as labels.",
      labelNames: ["version", "build_id", "migration"] as const,
      registers: [registry],
    }),
  };
}

export const metrics = processSingleton("metrics", createMetrics);

/** Adds a gauge whose value is read when Prometheus scrapes (the pool, the sessions). */
export function gaugeReadOnScrape(
  name: string,
  help: string,
  labelNames: readonly string[],
  read: (gauge: Gauge) => Promise<void> | void,
): void {
  processSingleton(`gauge:${name}`, () => {
    const gauge: Gauge = new Gauge({
      name,
      help,
      labelNames: labelNames as string[],
      registers: [metrics.registry],
      collect: () => read(gauge),
    });
    return gauge;
  });
}
