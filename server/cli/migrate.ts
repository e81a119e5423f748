/**
 * `npm run migrate`: brings the database of DATABASE_URL (or DATA_DIR) up to this build's schema,
 * for an init step before new instances start (they also migrate at start, taking turns on a lock).
 * `--status` applies nothing: it lists the pending migrations and exits 3 when there are any.
 */
import { setProcessMode, settingProblems, settings } from "@/server/config/settings";
import { openDatabase } from "@/server/db/database";
import { describeOpenFailure } from "@/server/db/open-failure";
import { migrate, newestAppliedMigration, pendingMigrations } from "@/server/db/migrate";

const statusOnly = process.argv.includes("--status");
if (!process.env.NODE_ENV) setProcessMode(false);
const problems = settingProblems();
if (problems.length > 0) {
  for (const problem of problems) process.stderr.write(`Configuration error: ${problem}\n`);
  process.exit(1);
}
const { url, dataDir, connectTimeoutMs } = settings().database;
// A migration may run longer than a request may: ten minutes per statement here.
const pool = { poolSize: 1, connectTimeoutMs, statementTimeoutMs: 600_000 };
async function main(): Promise<void> {
  try {
    const db = await openDatabase({ url, dataDir, pool, migrate: false });
    try {
      const pending = await pendingMigrations(db);
      if (statusOnly) {
        process.stdout.write(pending.length === 0 ? "Schema up to date.\n" : `Pending migrations: ${pending.join(", ")}\n`);
        process.exitCode = pending.length === 0 ? 0 : 3;
      } else {
        const applied = await migrate(db);
        const newest = await newestAppliedMigration(db);
        process.stdout.write(
          applied.length === 0 ? `Schema up to date at ${newest}.\n` : `Applied ${applied.join(", ")}; schema at ${newest}.\n`,
        );
      }
    } finally {
      await db.close();
    }
  } catch (error) {
    process.stderr.write(`Database error: ${describeOpenFailure(error)}\n`);
    process.exit(1);
  }
}

void main();
