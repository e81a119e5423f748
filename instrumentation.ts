/** Checks the settings once at start-up, so a misconfigured server stops with a clear message. */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { sessionSecrets } = await import("@/lib/session/secrets");
  const { upstreamBaseUrl, upstreamTimeoutMs, sessionTtlSeconds } = await import("@/lib/server/config");
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
