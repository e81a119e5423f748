/** Checks the settings once at start-up, so a misconfigured server stops with a clear message. */
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { checkConfigurationOrExit } = await import("@/lib/server/startup");
    checkConfigurationOrExit();
  }
}
