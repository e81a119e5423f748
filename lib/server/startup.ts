import "server-only";
import { sessionSecrets } from "@/lib/session/secrets";
import { sessionTtlSeconds, upstreamBaseUrl, upstreamTimeoutMs } from "./config";

/** Reads every setting once; a missing or malformed one stops the server with its message. */
export function checkConfigurationOrExit(): void {
  try {
    sessionSecrets();
    upstreamBaseUrl();
    upstreamTimeoutMs();
    sessionTtlSeconds();
  } catch (error) {
    console.error(`Configuration error: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
