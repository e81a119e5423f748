/**
 * The dashboard's server program: `npm run build` bundles it into each release as server.mjs,
 * `npm run start:prod` runs it (and `npm start` behind the demo upstream). In order: every
 * setting is checked, the database opened and migrated (one line and exit 1 on any problem),
 * Next.js prepared, then it listens; SIGTERM drains it. Development: `--dev`, from the sources.
 */
import { existsSync, readFileSync } from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createNetServer } from "node:net";
import { join } from "node:path";
import { format } from "node:util";
import v8 from "node:v8";
import { setProcessMode, settings, applyStandaloneConfig } from "@/server/config/settings";
import { database } from "@/server/db/database";
import { registerAllJobs } from "@/server/jobs/catalog";
import { prestartRowWorker } from "@/server/metrics/rows-off-thread";
import { startBackgroundWork, stopBackgroundWork } from "@/server/jobs/worker";
import { logger } from "@/server/observability/log";
import { gaugeReadOnScrape, metrics } from "@/server/observability/metrics";
import { startTracing } from "@/server/observability/tracing";
import { buildInfo } from "@/server/runtime/build-info";
import { stopGracefullyOnSignals } from "@/server/runtime/graceful-stop";
import { createDashboardServer } from "@/server/runtime/http-server";
import { onShutdown, publishServerState } from "@/server/runtime/lifecycle";
import { checkSettingsOrExit, openDatabaseOrExit, refuseToStart } from "@/server/runtime/startup";

/** A port in use is reported at once, before Next.js loads. */
function checkPortFree(name: string, host: string, port: number): Promise<void> {
  return new Promise((resolve) => {
    const probe = createNetServer();
    probe.once("error", (error: NodeJS.ErrnoException) =>
      refuseToStart([
        error.code === "EADDRINUSE"
          ? `${name} ${port} is already in use: stop what listens there, or choose another port (${name}=${port + 1}).`
          : `Cannot listen on ${host}:${port} (${name}): ${error.message}`,
      ]),
    );
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/** Everything written to the console (Next.js's own messages too) becomes one JSON line. */
function routeConsoleToLog(): void {
  const toLog =
    (level: "info" | "warn" | "error") =>
    (...args: unknown[]) =>
      logger[level](format(...args).trim());
  Object.assign(console, { log: toLog("info"), info: toLog("info"), warn: toLog("warn"), error: toLog("error") });
}

/** Prometheus scrapes on a port of its own (METRICS_PORT), never the public one. */
function serveMetrics(host: string, port: number): Server {
  const server = createHttpServer(async (request, response) => {
    if (request.method !== "GET" || request.url !== "/metrics") {
      response.writeHead(404, { "content-type": "text/plain" }).end("Not found: metrics are at /metrics.\n");
      return;
    }
    response.writeHead(200, { "content-type": metrics.registry.contentType }).end(await metrics.registry.metrics());
  });
  server.listen(port, host);
  return server;
}

function registerScrapedGauges(): void {
  gaugeReadOnScrape(
    "dashboard_db_pool_connections",
    "PostgreSQL pool connections by state (total, idle, waiting).",
    ["state"],
    async (gauge) => {
      const stats = (await database()).poolStats?.();
      if (!stats) return;
      for (const [state, value] of Object.entries(stats)) gauge.set({ state }, value);
    },
  );
  gaugeReadOnScrape("dashboard_active_sessions", "Sessions not ended, used within the idle limit.", [], async (gauge) => {
    const [row] = await (
      await database()
    ).query<{ count: number }>(
      "select count(*)::int as count from sessions where revoked_at is null and last_seen_at > now() - make_interval(secs => $1)",
      [settings().session.idleSeconds],
    );
    gauge.set(row?.count ?? 0);
  });
}

async function main(): Promise<void> {
  const dev = process.argv.includes("--dev");
  setProcessMode(dev);
  checkSettingsOrExit();
  const config = settings();
  await checkPortFree("PORT", config.server.host, config.server.port);
  if (config.observability.metricsPort)
    await checkPortFree("METRICS_PORT", config.observability.metricsHost, config.observability.metricsPort);
  if (!dev) routeConsoleToLog();
  // The embedded database is WebAssembly: compiled once without the optimizing tier, it keeps
  // the process's memory near a third of what it would be (docs/benchmarks.md, "The embedded database's memory").
  if (config.database.embedded) v8.setFlagsFromString("--liftoff-only");
  const state = publishServerState();
  const info = buildInfo();
  const { otlpEndpoint, serviceName } = config.observability;
  if (otlpEndpoint) onShutdown(startTracing({ endpoint: otlpEndpoint, serviceName, version: info.version, buildId: info.buildId }));
  await openDatabaseOrExit();
  registerAllJobs();
  startBackgroundWork();
  // The first product-rows read after a start finds its worker thread loaded and waiting.
  if (config.upstream.rowWorkers) void prestartRowWorker();
  // Runs in flight finish (or lose their lease) before the database closes.
  onShutdown(() => stopBackgroundWork(), { first: true });
  metrics.buildInfo.set({ version: info.version, build_id: info.buildId, migration: info.migration }, 1);
  registerScrapedGauges();

  const serverFiles = join(process.cwd(), ".next", "required-server-files.json");
  if (!dev && existsSync(serverFiles)) applyStandaloneConfig((JSON.parse(readFileSync(serverFiles, "utf8")) as { config: unknown }).config);
  const { default: next } = await import("next");
  const app = next({ dev, dir: process.cwd(), hostname: config.server.host, port: config.server.port });
  await app.prepare();

  const server = createDashboardServer(app.getRequestHandler(), { ...config.server, logProbes: config.observability.logProbes }, state);
  const servers = [server];
  if (config.observability.metricsPort) servers.push(serveMetrics(config.observability.metricsHost, config.observability.metricsPort));
  await new Promise<void>((resolve) => server.listen(config.server.port, config.server.host, resolve));
  // On the signal the worker stops claiming at once; its runs in flight get the same grace as requests.
  stopGracefullyOnSignals(servers, state, config.server.shutdownGraceMs, () => stopBackgroundWork(config.server.shutdownGraceMs));
  logger.info(
    {
      version: info.version,
      buildId: info.buildId,
      migration: info.migration,
      database: config.database.embedded ? "embedded" : "postgresql",
      metrics: config.observability.metricsPort ? `${config.observability.metricsHost}:${config.observability.metricsPort}` : "off",
      tracing: otlpEndpoint ? "on" : "off",
      jobs: config.jobs.enabled ? "on" : "off",
      mail: config.mail.smtpUrl ? "smtp" : "outbox",
    },
    `Listening on http://${config.server.host}:${config.server.port} (${dev ? "development" : "production"})`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
