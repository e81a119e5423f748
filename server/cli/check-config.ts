/**
 * `npm run check-config`: checks every setting as the server would at start, without starting
 * anything, for a CI job or an init step. Production rules apply unless NODE_ENV says otherwise.
 * Exit 0 with the effective settings (secrets shown only as counts), or exit 1 with one line per
 * problem, naming the setting.
 */
import { setProcessMode, settingProblems, settings } from "@/server/config/settings";

if (!process.env.NODE_ENV) setProcessMode(false);
const problems = settingProblems();
if (problems.length > 0) {
  for (const problem of problems) process.stderr.write(`Configuration error: ${problem}\n`);
  process.exit(1);
}
const { production, upstream, session, database, server, observability, appOrigin } = settings();
const lines = [
  `Settings are valid (${production ? "production" : "not production"} rules).`,
  `  upstream        ${upstream.baseUrl} (timeout ${upstream.timeoutMs} ms)`,
  `  session secrets ${session.secrets.length === 0 ? "none: a random one per start" : `${session.secrets.length} (the first seals)`}`,
  `  database        ${database.embedded ? `embedded PGlite in ${database.dataDir} (one instance only)` : `PostgreSQL, pool of ${database.poolSize}`}`,
  `  listens on      ${server.host}:${server.port}, ${server.trustProxyHops} trusted proxy hop(s), stop grace ${server.shutdownGraceMs} ms`,
  `  origin          ${appOrigin ?? "from each request's Host (set APP_ORIGIN behind a reverse proxy)"}`,
  `  metrics         ${observability.metricsPort ? `${observability.metricsHost}:${observability.metricsPort}/metrics` : "off (METRICS_PORT unset)"}`,
  `  traces          ${observability.otlpEndpoint ?? "off (OTEL_EXPORTER_OTLP_ENDPOINT unset)"}`,
];
process.stdout.write(`${lines.join("\n")}\n`);
