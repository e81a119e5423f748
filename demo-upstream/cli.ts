/**
 * Command line for the demo upstream: `npm run demo-upstream -- [flags]`.
 * Prints one "listening on" line (scripts wait for it) and stops cleanly on SIGINT/SIGTERM.
 */

import { ZodError } from "zod";
import { describeDemo } from "./describe";
import { anomalyRulesSchema } from "./anomalies";
import { defaultDemoAnomalies } from "./demo-drop";
import { faultRulesSchema } from "./faults";
import { startDemoUpstream, type DemoUpstreamOptions } from "./server";

const USAGE = `Usage: npm run demo-upstream -- [flags]

  --port N         port to listen on (default 4010; 0 picks a free port)
  --host H         interface to bind (default 127.0.0.1)
  --seed N         data seed, an integer (default 42)
  --scale N        data volume multiplier, > 0 (default 1; 35 gives over a million rows a year)
  --faults JSON    fault rules, e.g. '[{"route":"products","latencyMs":500}]'
  --anomalies JSON a channel's sales drop to near zero from a day, e.g.
                   '[{"storeUrl":"northwind-outfitters.myshopify.com","channel":"facebook","from":"2026-11-20"}]';
                   without it, kumo-living-au.myshopify.com's facebook sales stop 3 days ago
                   (so an alert can be seen firing); '[]' turns that off
  --control        enable the /__control endpoints (state, faults, odd, anomalies, reset, and restate:
                   PUT /__control/restate '{"storeUrl":"…","date":"2026-10-03","factor":1.5}' multiplies that
                   store-day's revenue from then on, as a restated day; factor 1 undoes it)
  --odd            also serve the odd store (contract-valid, unusual values; key sk_demo_admin_odd_7f3a9c2e5b10)
  --describe       print the demo keys and ad accounts as JSON and exit
  --help           show this help
`;

class UsageError extends Error {}

interface CliOptions extends DemoUpstreamOptions {
  describe: boolean;
  help: boolean;
}

function parseNumber(flag: string, raw: string, check: (value: number) => boolean, expected: string): number {
  const value = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(value) || !check(value)) throw new UsageError(`${flag} must be ${expected}, got "${raw}"`);
  return value;
}

function parseRules<T>(flag: string, what: string, raw: string, schema: { parse(value: unknown): T }): T {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new UsageError(`${flag} must be a JSON array of ${what}`);
  }
  try {
    return schema.parse(value);
  } catch (error) {
    const issue = error instanceof ZodError ? error.issues[0] : undefined;
    throw new UsageError(`${flag} is invalid${issue ? ` at ${issue.path.join(".") || "(root)"}: ${issue.message}` : ""}`);
  }
}

function parseArgs(argv: readonly string[]): CliOptions {
  const options: CliOptions = { describe: false, help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const eq = arg.indexOf("=");
    const flag = arg.startsWith("--") && eq !== -1 ? arg.slice(0, eq) : arg;
    const inline = arg.startsWith("--") && eq !== -1 ? arg.slice(eq + 1) : undefined;
    const value = (): string => {
      if (inline !== undefined) return inline;
      const next = argv[i + 1];
      if (next === undefined) throw new UsageError(`${flag} needs a value`);
      i += 1;
      return next;
    };
    switch (flag) {
      case "--port":
        options.port = parseNumber(flag, value(), (n) => Number.isInteger(n) && n >= 0 && n <= 65535, "an integer from 0 to 65535");
        break;
      case "--host":
        options.host = value();
        break;
      case "--seed":
        options.seed = parseNumber(flag, value(), Number.isSafeInteger, "an integer");
        break;
      case "--scale":
        options.scale = parseNumber(flag, value(), (n) => n > 0 && n <= 10_000, "a number greater than 0 (at most 10000)");
        break;
      case "--faults":
        options.faults = parseRules(flag, "fault rules", value(), faultRulesSchema);
        break;
      case "--anomalies":
        options.anomalies = parseRules(flag, "anomaly rules", value(), anomalyRulesSchema);
        break;
      case "--control":
      case "--odd":
      case "--describe":
      case "--help":
        if (inline !== undefined) throw new UsageError(`${flag} takes no value`);
        if (flag === "--control") options.control = true;
        else if (flag === "--odd") options.odd = true;
        else if (flag === "--describe") options.describe = true;
        else options.help = true;
        break;
      default:
        throw new UsageError(`unknown argument "${arg}"`);
    }
  }
  return options;
}

async function main(): Promise<void> {
  let options: CliOptions;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`demo-upstream: ${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (options.help) {
    process.stdout.write(USAGE);
    return;
  }
  if (options.describe) {
    process.stdout.write(`${JSON.stringify(describeDemo(options.seed, options.odd), null, 2)}\n`);
    return;
  }
  // Without --anomalies, one store shows a drop, so an alert can be seen firing in the demo.
  options.anomalies ??= defaultDemoAnomalies(new Date());
  const upstream = await startDemoUpstream(options).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
    process.stderr.write(
      `demo-upstream: port ${options.port ?? 4010} is already in use: stop what listens there, or choose another port (--port; DEMO_UPSTREAM_PORT under npm start).\n`,
    );
    process.exit(1);
  });
  console.log(`demo upstream listening on ${upstream.baseUrl}`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    upstream.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`demo-upstream: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
