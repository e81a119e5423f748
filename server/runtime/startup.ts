import "server-only";
import { settingProblems, settings } from "@/server/config/settings";
import { webhookOriginProblem } from "@/server/alerts/rules";
import { closeDatabase, database } from "@/server/db/database";
import { describeOpenFailure } from "@/server/db/open-failure";
import { onShutdown } from "./lifecycle";

/** Before the server listens; any problem exits 1 with one plain line each on stderr, naming the setting (never a password). */

export function refuseToStart(lines: string[]): never {
  for (const line of lines) process.stderr.write(`${line}\n`);
  process.exit(1);
}

/** Every setting, checked at once. */
export function checkSettingsOrExit(): void {
  const problems = settingProblems();
  if (problems.length > 0) refuseToStart(problems.map((problem) => `Configuration error: ${problem}`));
}

/** Opens the database and applies its migrations; it closes after the last request of a graceful stop. */
export async function openDatabaseOrExit(): Promise<void> {
  onShutdown(closeDatabase);
  let problem: string | null = null;
  try {
    problem = await webhookOriginProblem(await database(), settings());
  } catch (error) {
    refuseToStart([`Database error: ${describeOpenFailure(error)}`]);
  }
  if (problem) refuseToStart([`Configuration error: ${problem}`]);
}
