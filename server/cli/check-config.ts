/**
 * `npm run check-config`: checks every setting as the server would at start, then tries what they name, each within a few seconds: the
 * database (migrations current, pending or ahead; the app role and forced row-level security), the grants DELEGATION_KEY can open, the SMTP
 * server (EHLO, nothing sent) and the upstream. Production rules apply unless NODE_ENV says otherwise. Exit 0 with the effective settings
 * (secrets masked), or exit 1 with one line per problem, naming the setting. `--offline` skips the connections; `--format markdown` prints
 * the settings reference (docs/configuration.md) and checks nothing.
 */
import { SETTING_DOCS, settingsMarkdown } from "@/server/config/markdown";
import { setProcessMode, settingProblems, settings } from "@/server/config/settings";
import { maskedUrl } from "@/server/config/fields";
import { probeDatabase, probeSmtp, probeUpstream, type ProbeResult } from "./probes";

const PROBE_TIMEOUT_MS = 3_000;
const args = process.argv.slice(2);
const formatAt = args.indexOf("--format");
const format = formatAt === -1 ? "text" : args[formatAt + 1];

/** A setting's value as it may be printed: a URL without its user, password or query values, other secrets as their count. */
function shown(name: string, raw: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) return maskedUrl(raw);
  if (!SETTING_DOCS.find((setting) => setting.name === name)?.secret) return raw;
  const count = raw.split(",").filter((part) => part.trim()).length;
  return `*** (${count} secret${count === 1 ? "" : "s"})`;
}

/** Every setting: its value when set (secrets masked), else its default. */
function effectiveSettings(): string[] {
  const { production } = settings();
  return [
    `Settings are valid (${production ? "production" : "not production"} rules):`,
    ...SETTING_DOCS.map((doc) => {
      const raw = process.env[doc.name];
      return `  ${doc.name.padEnd(32)} ${raw ? shown(doc.name, raw) : `default: ${doc.fallback.replaceAll("`", "")}`}`;
    }),
  ];
}

async function main(): Promise<void> {
  if (format === "markdown") {
    process.stdout.write(settingsMarkdown());
    return;
  }
  if (format !== "text") {
    process.stderr.write(`--format must be text or markdown, got "${format ?? ""}".\n`);
    process.exit(2);
  }
  if (!process.env.NODE_ENV) setProcessMode(false);
  const problems = settingProblems();
  if (problems.length > 0) {
    for (const problem of problems) process.stderr.write(`Configuration error: ${problem}\n`);
    process.exit(1);
  }
  const lines = effectiveSettings();
  const config = settings();
  if (args.includes("--offline")) {
    process.stdout.write(`${[...lines, "Offline: nothing was reached (database, SMTP, upstream not tried)."].join("\n")}\n`);
    return;
  }
  const probes: Promise<ProbeResult>[] = [
    probeDatabase(config, PROBE_TIMEOUT_MS),
    probeUpstream(config.upstream.baseUrl, PROBE_TIMEOUT_MS),
  ];
  if (config.mail.smtpUrl) probes.push(probeSmtp(config.mail.smtpUrl, PROBE_TIMEOUT_MS));
  const results = await Promise.all(probes);
  lines.push("Reached:", ...results.flatMap((result) => result.notes).map((note) => `  ${note}`));
  process.stdout.write(`${lines.join("\n")}\n`);
  const found = results.flatMap((result) => result.problems);
  for (const problem of found) process.stderr.write(`Problem: ${problem}\n`);
  process.exitCode = found.length > 0 ? 1 : 0;
}

void main().then(() => process.exit());
