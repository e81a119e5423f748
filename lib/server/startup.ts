import "server-only";
import { sessionSecrets } from "@/lib/session/secrets";
import { closeDatabase, database } from "@/lib/store/database";
import { warnIfClientAddressUnknown } from "./client-address";
import { sessionIdleSeconds, sessionTtlSeconds, upstreamBaseUrl, upstreamTimeoutMs } from "./config";
import { onShutdown } from "./lifecycle";

/**
 * Reads every setting once and opens the database (applying its migrations); a missing or
 * malformed setting stops the server with its message. The database closes after the last
 * request of a graceful stop.
 */
export async function startOrExit(): Promise<void> {
  try {
    sessionSecrets();
    upstreamBaseUrl();
    upstreamTimeoutMs();
    sessionTtlSeconds();
    sessionIdleSeconds();
  } catch (error) {
    console.error(`Configuration error: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  warnIfClientAddressUnknown();
  onShutdown(closeDatabase);
  // An unreachable database is not fatal: requests answer 503 until it is back.
  await database().catch((error: unknown) =>
    console.error(`The database is not available yet: ${error instanceof Error ? error.message : String(error)}`),
  );
}
